package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/payoutd/payoutd/store"
)

func keysCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("keys: want create, list, rotate or revoke")
	}
	sub, args := args[0], args[1:]
	var c common
	fs := flag.NewFlagSet("keys "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.register(fs, getenv)
	email := fs.String("email", "", "the user's e-mail")
	name := fs.String("name", "", "the user's name (completes profile setup for a new user)")
	env := fs.String("env", "sandbox", "sandbox or production")
	scopes := fs.String("scopes", "all", "comma-separated scopes, or all")
	keyName := fs.String("key-name", "", "a label for the key")
	rateExempt := fs.Bool("rate-exempt", false, "lift rate limits for this key (benchmark users only)")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if *env != "sandbox" && *env != "production" {
		return fmt.Errorf("--env must be sandbox or production, not %q", *env)
	}
	live := *env == "production"
	db, sealer, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	switch sub {
	case "create":
		if !strings.Contains(*email, "@") {
			return errors.New("keys create: --email is required")
		}
		sc, err := parseScopes(*scopes)
		if err != nil {
			return err
		}
		var secret string
		err = db.WithTx(ctx, func(tx *store.Tx) error {
			u, _, err := tx.EnsureUser(*email, live, *name, sealer)
			if err != nil {
				return err
			}
			k, s, err := tx.CreateAPIKey(u, *keyName, sc)
			if err == nil && *rateExempt {
				err = tx.SetRateExempt(k.ID)
			}
			secret = s
			return err
		}, store.WithActor("cli", ""))
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, secret)
		return nil
	case "list":
		u, err := db.FindUserByEmail(ctx, *email, live)
		if err != nil {
			return fmt.Errorf("keys list: no %s user %q", *env, *email)
		}
		keys, err := db.ListAPIKeys(ctx, u.ID)
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
	case "rotate", "revoke":
		if len(positional) != 1 {
			return fmt.Errorf("keys %s: want exactly one KEY_ID", sub)
		}
		id := positional[0]
		return db.WithTx(ctx, func(tx *store.Tx) error {
			if sub == "revoke" {
				if err := tx.RevokeAPIKey(id); err != nil {
					return err
				}
				fmt.Fprintf(stderr, "revoked %s\n", id)
				return nil
			}
			k, secret, err := tx.RotateAPIKey(id)
			if err != nil {
				return err
			}
			fmt.Fprintf(stderr, "rotated %s → %s; the old key works for 24 h more\n", id, k.ID)
			fmt.Fprintln(stdout, secret)
			return nil
		}, store.WithActor("cli", ""))
	}
	return fmt.Errorf("keys: unknown subcommand %q", sub)
}
