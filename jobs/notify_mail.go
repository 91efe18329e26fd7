package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/riverqueue/river"
	gomail "github.com/wneessen/go-mail"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// MailQueue is the River queue of notice e-mails, apart from the payout
// pipeline's, so a mail server that is slow or down holds up only mail.
const MailQueue = "mail"

// MailAttempts is how often one e-mail is tried: River's backoff
// (attempt⁴ seconds) spreads twelve attempts over about 11 hours.
const MailAttempts = 12

// NoticeMailArgs mails one notice to its user.
type NoticeMailArgs struct {
	NoticeID string `json:"noticeId"`
}

// Kind is the stable job kind.
func (NoticeMailArgs) Kind() string { return "notice_mail" }

// InsertOpts puts every e-mail on the mail queue.
func (NoticeMailArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: MailQueue, MaxAttempts: MailAttempts}
}

// NoticeMailWorker sends one notice as one e-mail. A server that refuses
// or cannot be reached fails the attempt and River tries again later.
type NoticeMailWorker struct {
	river.WorkerDefaults[NoticeMailArgs]
	DB      *store.DB
	SMTP    SMTP
	BaseURL string // the console's links in the e-mail start with it
	Log     *slog.Logger
}

// Work mails the notice unless it was mailed already or the user has since
// turned its kind off.
func (w *NoticeMailWorker) Work(ctx context.Context, job *river.Job[NoticeMailArgs]) error {
	n, err := w.DB.FindNotice(ctx, job.Args.NoticeID)
	if apperr.Code(err) == apperr.ErrNotFound {
		return river.JobCancel(err)
	}
	if err != nil || n.MailedAt != nil {
		return err
	}
	off, err := w.DB.NoticeMailOff(ctx, n.UserID)
	if err != nil {
		return err
	}
	for _, k := range off {
		if k == n.Kind {
			return nil
		}
	}
	u, err := w.DB.FindUser(ctx, n.UserID)
	if err != nil {
		return err
	}
	msg, err := w.message(n, u.Email)
	if err != nil {
		return river.JobCancel(err) // an address no retry makes valid
	}
	c, err := w.SMTP.client()
	if err != nil {
		return river.JobCancel(err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		w.Log.WarnContext(ctx, "notice e-mail not sent; it is tried again later", "notice", n.ID, "server", w.SMTP.Addr(),
			"attempt", job.Attempt, "error", err.Error())
		return fmt.Errorf("mail to %s: %w", w.SMTP.Addr(), err)
	}
	return w.DB.WithTx(ctx, func(tx *store.Tx) error { return tx.NoticeMailed(n.ID) }, store.WithActor("system:mail", ""))
}

// message is the notice as a plain-text e-mail.
func (w *NoticeMailWorker) message(n store.Notice, to string) (*gomail.Msg, error) {
	m := gomail.NewMsg()
	if err := m.From(w.SMTP.From); err != nil {
		return nil, err
	}
	if err := m.To(to); err != nil {
		return nil, err
	}
	mode := ""
	if !n.Livemode {
		mode = "[sandbox] "
	}
	m.Subject(mode + n.Title)
	m.SetDate()
	m.SetMessageID()
	m.SetGenHeader(gomail.HeaderXMailer, "payoutd")
	base := strings.TrimRight(w.BaseURL, "/")
	var b strings.Builder
	b.WriteString(n.Title + "\n\n")
	if n.Body != "" {
		b.WriteString(n.Body + "\n\n")
	}
	if n.Link != "" {
		b.WriteString("Open it in the console: " + base + n.Link + "\n\n")
	}
	b.WriteString("--\npayoutd sends this because e-mail for this kind of notice is on. " +
		"Turn it off in the console under Settings, Notices: " + base + "/console/settings#notices\n")
	m.SetBodyString(gomail.TypeTextPlain, b.String())
	return m, nil
}
