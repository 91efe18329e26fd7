package jobs

import (
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
	var d noticeData
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		return fmt.Errorf("notice of %s: %w", ev.Type, err)
	}
	if n.skip != nil && n.skip(d) {
		return nil
	}
	t := n.render(d)
	notice := store.Notice{UserID: ev.UserID, Livemode: ev.Livemode, Kind: n.kind, Occasion: ev.ID, Title: t.title, Body: t.body, Link: t.link}
	tx.Notices().AddEventNotice(&notice)
	return mailJob(tx, notice, mail)
}

// Notify writes a notice unless its user has one of the same occasion and,
// when mail is on and the user wants its kind by e-mail, inserts the job
// that mails it, in tx.
func Notify(tx *store.Tx, n store.Notice, mail bool) error {
	added, err := tx.Notices().AddNotice(&n)
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
	wanted, err := tx.Notices().MailsNotice(n.UserID, n.Kind)
	if err != nil || !wanted {
		return err
	}
	return tx.Enqueue(NoticeMailArgs{NoticeID: n.ID}, nil)
}
