package jobs_test

import (
	"context"
	"crypto/tls"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/internal/mailtest"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
)

// fastRetry tries a failed job again at once, so a test sees the retry
// that follows a refusal without waiting River's backoff.
type fastRetry struct{}

func (fastRetry) NextRetry(*rivertype.JobRow) time.Time { return time.Now().Add(50 * time.Millisecond) }

// mailApp is a started payoutd whose notices are mailed through smtp.
func mailApp(t *testing.T, smtp jobs.SMTP) (*app.App, store.User) {
	t.Helper()
	smtp.Timeout = 5 * time.Second
	a, sealer := apptest.Open(t, app.Config{Workers: 2, SMTP: &smtp, BaseURL: "https://payouts.example.in",
		RetryPolicy: fastRetry{}, FetchPoll: 50 * time.Millisecond})
	var u store.User
	err := a.DB.WithTx(context.Background(), func(tx *store.Tx) (err error) {
		u, _, err = tx.EnsureUser("asha@example.in", false, "Asha Rao", sealer)
		return err
	}, store.WithActor("test", ""))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a, u
}

// deposit books a sandbox deposit into u's default vault.
func deposit(t *testing.T, a *app.App, u store.User, amount int64, memo string) store.Movement {
	t.Helper()
	vs, err := a.DB.ListVaults(context.Background(), u.ID)
	if err != nil {
		t.Fatal(err)
	}
	var m store.Movement
	err = a.DB.WithTx(context.Background(), func(tx *store.Tx) (err error) {
		m, err = tx.SandboxDeposit(u.ID, vs[0].ID, amount, "GBCLIENTSENDER", memo)
		return err
	}, store.WithActor("test", ""))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func smtpOf(t *testing.T, srv *mailtest.Server) jobs.SMTP {
	t.Helper()
	s, err := jobs.ParseSMTP(srv.URL(), "payoutd <payoutd@example.in>")
	if err != nil {
		t.Fatal(err)
	}
	s.TLS = &tls.Config{RootCAs: srv.Roots(), ServerName: "127.0.0.1"}
	return s
}

func TestNoticeMailedOverSTARTTLS(t *testing.T) {
	is := is.New(t)
	srv := mailtest.Start(t)
	a, u := mailApp(t, smtpOf(t, srv))
	m := deposit(t, a, u, 12_345, "INV-7")
	wait.Until(t, 10*time.Second, "the deposit's e-mail", func() bool { return len(srv.Messages()) == 1 })
	got := srv.Messages()[0]
	is.True(got.TLS)                    // sent after STARTTLS
	is.Equal(got.Authed, mailtest.User) // with the URL's credentials
	is.Equal(got.To, []string{"asha@example.in"})
	is.Equal(got.Header.Get("Subject"), "[sandbox] Deposit of USD 123.45 received")
	is.True(strings.Contains(got.Body, "From GBCLIENTSENDER, memo “INV-7”."))
	is.True(strings.Contains(got.Body, "https://payouts.example.in/console/vaults/"+m.VaultID))
	ns, err := a.DB.ListNotices(context.Background(), store.NoticeFilter{UserID: u.ID, Limit: 10})
	is.NoErr(err)
	is.Equal(len(ns), 1)
	wait.Until(t, 5*time.Second, "the notice marked mailed", func() bool {
		n, err := a.DB.FindNotice(context.Background(), ns[0].ID)
		return err == nil && n.MailedAt != nil
	})
}

// A server that refuses (451) delays the e-mail: the notice is there at
// once, the job tries again, and one e-mail arrives once it accepts.
func TestNoticeMailRetriedWhileRefused(t *testing.T) {
	is := is.New(t)
	srv := mailtest.Start(t)
	srv.Refuse(true)
	a, u := mailApp(t, smtpOf(t, srv))
	deposit(t, a, u, 500, "")
	ns, err := a.DB.ListNotices(context.Background(), store.NoticeFilter{UserID: u.ID, Limit: 10})
	is.NoErr(err)
	is.Equal(len(ns), 1) // the notice does not wait for the mail server
	wait.Until(t, 10*time.Second, "two refused attempts", func() bool { return srv.Refused() >= 2 })
	srv.Refuse(false)
	wait.Until(t, 10*time.Second, "the e-mail once accepted", func() bool { return len(srv.Messages()) == 1 })
	is.Equal(len(srv.Messages()), 1)
}

// A mail server that is down blocks nothing: deposits book and their
// notices appear while the e-mail jobs keep failing.
func TestNoticeMailServerDown(t *testing.T) {
	is := is.New(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	s, err := jobs.ParseSMTP("smtp://"+addr, "payoutd@example.in")
	is.NoErr(err)
	a, u := mailApp(t, s)
	for i := range 3 {
		deposit(t, a, u, int64(100+i), "")
	}
	ns, err := a.DB.ListNotices(context.Background(), store.NoticeFilter{UserID: u.ID, Limit: 10})
	is.NoErr(err)
	is.Equal(len(ns), 3)
	for _, n := range ns {
		is.Equal(n.MailedAt, nil)
	}
}

// A kind turned off in Settings is listed but not mailed; the others are.
func TestNoticeMailOptOut(t *testing.T) {
	is := is.New(t)
	srv := mailtest.Start(t)
	a, u := mailApp(t, smtpOf(t, srv))
	err := a.DB.WithTx(context.Background(), func(tx *store.Tx) error {
		return tx.SetNoticeMailOff(u.ID, false, []string{jobs.NoticeDepositReceived})
	}, store.WithActor("test", ""))
	is.NoErr(err)
	deposit(t, a, u, 100, "off")
	// A notice of another kind, through the same hook, is mailed.
	err = a.DB.WithTx(context.Background(), func(tx *store.Tx) error {
		return jobs.Notify(tx, store.Notice{UserID: u.ID, Kind: jobs.NoticeAdvanceTax, Occasion: "advance_tax:test", Title: "Advance tax"}, true)
	}, store.WithActor("test", ""))
	is.NoErr(err)
	wait.Until(t, 10*time.Second, "the advance-tax e-mail", func() bool { return len(srv.Messages()) == 1 })
	is.Equal(srv.Messages()[0].Header.Get("Subject"), "[sandbox] Advance tax")
	ns, err := a.DB.ListNotices(context.Background(), store.NoticeFilter{UserID: u.ID, Limit: 10})
	is.NoErr(err)
	is.Equal(len(ns), 2) // both listed in the console
}
