package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/console"
	"github.com/payoutd/payoutd/store"
)

// consoleLinkCmd prints a one-time sign-in link to the console for an
// existing user.
func consoleLinkCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("console-link", "console-link --email E [flags]",
		"Prints a one-time sign-in link to the console (/console/) for an existing user: it works once, within 15\n"+
			"minutes, in the browser that opens it.", stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, false)
	email := cmd.String("email", "", "the user's e-mail (required)")
	live := envFlag(cmd, "sandbox", "sandbox or production: which of the e-mail's users signs in")
	baseURL := cmd.String("base-url", envOr(getenv, "PAYOUTD_BASE_URL", ""), "the server's public base URL, as serve's -base-url (required; env PAYOUTD_BASE_URL)")
	if err := cmd.parseNone(args); err != nil {
		return err
	}
	if err := checkEmail(*email); err != nil {
		return fmt.Errorf("console-link: %w", err)
	}
	env, livemode, err := live()
	if err != nil {
		return err
	}
	if *baseURL == "" {
		// Only the server knows where it listens; a guessed localhost:8080
		// would hand out a link that reaches nothing.
		return fmt.Errorf("console-link: the link needs the server's public base URL: pass --base-url URL or set PAYOUTD_BASE_URL (the value serve uses; without one, serve uses http://localhost and its -addr port)")
	}
	if !strings.HasPrefix(*baseURL, "http://") && !strings.HasPrefix(*baseURL, "https://") {
		return fmt.Errorf("console-link: --base-url must start with http:// or https://, not %q", *baseURL)
	}
	a, _, err := c.open(ctx, store.Write, false)
	if err != nil {
		return err
	}
	defer a.Close()
	u, err := a.DB.People().FindUserByEmail(ctx, *email, livemode)
	if apperr.Code(err) == apperr.ErrNotFound {
		return fmt.Errorf("console-link: no %s user %s (payoutd keys create --email %s creates one)", env, *email, *email)
	}
	if err != nil {
		return err
	}
	link, err := consoleLink(ctx, a.DB, u, *baseURL, "cli")
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, link)
	return nil
}

// consoleLink makes a sign-in link for u.
func consoleLink(ctx context.Context, db *store.DB, u store.User, baseURL, actor string) (string, error) {
	var token string
	err := db.WithTx(ctx, func(tx *store.Tx) (err error) {
		token, _, err = tx.Keys().CreateConsoleLink(u)
		return err
	}, store.WithActor(actor, ""))
	return console.SignInURL(baseURL, token), err
}
