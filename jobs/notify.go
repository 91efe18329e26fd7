package jobs

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/payoutd/payoutd/store"
)

// EventHook is the store's event hook app.Open installs: inside the
// transaction that writes an event it inserts the event's webhook
// deliveries and, when the event is one a user is told of, the notice
// (and, when mail is on, its e-mail job), so each exists exactly when the
// event does.
func EventHook(mail bool) store.EventHook {
	byEvent := map[string]eventNotice{}
	for _, n := range eventNotices {
		byEvent[n.event] = n
	}
	return func(tx *store.Tx, ev store.Event) error {
		if err := EnqueueWebhooks(tx, ev); err != nil {
			return err
		}
		n, ok := byEvent[ev.Type]
		if !ok {
			return nil
		}
		return noticeOf(tx, n, ev, mail)
	}
}

// noticeOf writes the notice of ev, one per event.
func noticeOf(tx *store.Tx, n eventNotice, ev store.Event, mail bool) error {
	data := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(ev.Data))
	dec.UseNumber()
	if err := dec.Decode(&data); err != nil {
		return fmt.Errorf("notice of %s: %w", ev.Type, err)
	}
	if n.skip != nil && n.skip(data) {
		return nil
	}
	title, body, link, err := n.render(data)
	if err != nil {
		return fmt.Errorf("notice of %s: %w", ev.Type, err)
	}
	notice := store.Notice{UserID: ev.UserID, Livemode: ev.Livemode, Kind: n.kind, Occasion: ev.ID, Title: title, Body: body, Link: link}
	tx.AddEventNotice(&notice)
	return mailJob(tx, notice, mail)
}

// Notify writes a notice unless its user has one of the same occasion and,
// when mail is on and the user wants its kind by e-mail, inserts the job
// that mails it, in tx.
func Notify(tx *store.Tx, n store.Notice, mail bool) error {
	added, err := tx.AddNotice(&n)
	if err != nil || !added {
		return err
	}
	return mailJob(tx, n, mail)
}

// mailJob inserts the job that mails n, when mail is on and its user wants
// its kind by e-mail.
func mailJob(tx *store.Tx, n store.Notice, mail bool) error {
	if !mail {
		return nil
	}
	wanted, err := tx.MailsNotice(n.UserID, n.Kind)
	if err != nil || !wanted {
		return err
	}
	return tx.Enqueue(NoticeMailArgs{NoticeID: n.ID}, nil)
}
