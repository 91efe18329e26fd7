package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/payoutd/payoutd/store"
)

const keysUsage = `usage: payoutd keys SUBCOMMAND [flags]

Manage API keys on an existing database (it is never created here).

subcommands:
  create --email E [--name N] [--env sandbox|production] [--scopes a,b|all]
                        create a key (and the user, on a new e-mail); prints the secret once
  list --email E [--env sandbox|production]
                        list a user's keys
  rotate KEY_ID         issue a replacement; the old key works 24 h more
  revoke KEY_ID         invalidate a key at once

Run "payoutd keys SUBCOMMAND -h" for its flags.
`

func keysCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("keys: want create, list, rotate or revoke\n\n%s", keysUsage)
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, keysUsage)
		return nil
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "create":
		return keysCreate(ctx, args, getenv, stdout, stderr)
	case "list":
		return keysList(ctx, args, getenv, stdout, stderr)
	case "rotate", "revoke":
		return keysRotateRevoke(ctx, sub, args, getenv, stdout, stderr)
	}
	return fmt.Errorf("keys: unknown subcommand %q\n\n%s", sub, keysUsage)
}

// envFlag registers --env (sandbox or production, def unless given) and
// returns a function that checks it and reads it with its livemode.
func envFlag(cmd command, def, usage string) func() (string, bool, error) {
	env := cmd.String("env", def, usage)
	return func() (string, bool, error) {
		if *env != "sandbox" && *env != "production" {
			return "", false, fmt.Errorf("--env must be sandbox or production, not %q", *env)
		}
		return *env, *env == "production", nil
	}
}

func keysCreate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("keys create", "keys create --email E [flags]",
		"Creates an API key with the given scopes and prints its secret once. A new e-mail gets a user with a\n"+
			"profile, a PENDING KYC record and a default USD vault.", stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, true)
	email := cmd.String("email", "", "the user's e-mail (required)")
	name := cmd.String("name", "", "the user's name (completes profile setup for a new user)")
	live := envFlag(cmd, "sandbox", "sandbox or production")
	scopes := cmd.String("scopes", "all", "comma-separated scopes, or all")
	keyName := cmd.String("key-name", "", "a label for the key")
	rateExempt := cmd.Bool("rate-exempt", false, "lift rate limits for this key (benchmark users only)")
	if err := cmd.parseNone(args); err != nil {
		return err
	}
	if err := checkEmail(*email); err != nil {
		return fmt.Errorf("keys create: %w", err)
	}
	_, livemode, err := live()
	if err != nil {
		return err
	}
	sc, err := parseScopes(*scopes)
	if err != nil {
		return err
	}
	a, sealer, err := c.open(ctx, store.Write, true)
	if err != nil {
		return err
	}
	defer a.Close()
	db := a.DB
	var secret string
	err = db.WithTx(ctx, func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser(*email, livemode, *name, sealer)
		if err != nil {
			return err
		}
		k, s, err := tx.Keys().CreateAPIKey(u, *keyName, sc)
		if err == nil && *rateExempt {
			err = tx.Keys().SetRateExempt(k.ID)
		}
		secret = s
		return err
	}, store.WithActor("cli", ""))
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, secret)
	return nil
}

func keysList(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("keys list", "keys list --email E [flags]", "Lists a user's API keys, newest first.", stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, false)
	email := cmd.String("email", "", "the user's e-mail (required)")
	live := envFlag(cmd, "sandbox", "sandbox or production")
	if err := cmd.parseNone(args); err != nil {
		return err
	}
	if err := checkEmail(*email); err != nil {
		return fmt.Errorf("keys list: %w", err)
	}
	env, livemode, err := live()
	if err != nil {
		return err
	}
	a, _, err := c.open(ctx, store.Write, false)
	if err != nil {
		return err
	}
	defer a.Close()
	db := a.DB
	u, err := db.People().FindUserByEmail(ctx, *email, livemode)
	if err != nil {
		return fmt.Errorf("keys list: no %s user %q", env, *email)
	}
	keys, err := db.Keys().ListAPIKeys(ctx, u.ID)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPREFIX\tNAME\tSCOPES\tCREATED\tSTATE")
	now := time.Now()
	for _, k := range keys {
		state := "active"
		switch {
		case k.RevokedAt != nil:
			state = "revoked"
		case !k.Active(now):
			state = "expired"
		case k.ExpiresAt != nil:
			state = "rotated, valid until " + k.ExpiresAt.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s…\t%s\t%s\t%s\t%s\n", k.ID, k.Prefix, k.Name, strings.Join(k.Scopes, ","), k.CreatedAt.Format(time.RFC3339), state)
	}
	return tw.Flush()
}

func keysRotateRevoke(ctx context.Context, sub string, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	about := "Issues a replacement key with the same owner, name and scopes and prints its secret; the old key\n" +
		"works for 24 h more, and requests retried with either key replay the same stored responses."
	if sub == "revoke" {
		about = "Invalidates a key at once, with no grace period, ending its session tokens too."
	}
	cmd := newCommand("keys "+sub, "keys "+sub+" KEY_ID [flags]", about, stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, false)
	positional, err := cmd.parse(args)
	if err != nil {
		return err
	}
	if len(positional) != 1 {
		return fmt.Errorf("keys %s: want exactly one KEY_ID (see payoutd keys list)", sub)
	}
	id := positional[0]
	a, _, err := c.open(ctx, store.Write, false)
	if err != nil {
		return err
	}
	defer a.Close()
	db := a.DB
	// Printed once committed: a secret shown for a key that never landed
	// would lock its holder out.
	var k store.APIKey
	var secret string
	err = db.WithTx(ctx, func(tx *store.Tx) (err error) {
		if sub == "revoke" {
			return tx.Keys().RevokeAPIKey(id)
		}
		k, secret, err = tx.Keys().RotateAPIKey(id)
		return err
	}, store.WithActor("cli", ""))
	if err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	if sub == "revoke" {
		log.Info("key revoked", "key", id)
		return nil
	}
	log.Info("key rotated; the old key works for 24 h more", "key", id, "newKey", k.ID)
	fmt.Fprintln(stdout, secret)
	return nil
}
