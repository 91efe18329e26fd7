package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

const kycUsage = "kyc: want list [--status S] | show USER | documents USER --out DIR | approve USER | reject USER [--reason TEXT] (USER is a user id or e-mail)"

// kycCmd is the operator's review of live users' KYC: live mode has no
// verification provider, so a person looks at the documents and decides.
// It works beside a running server (SQLite in WAL; the server's workers
// deliver the kyc.updated events it records).
func kycCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("kyc", "kyc list|show|documents|approve|reject [USER] [flags]",
		"Reviews live users' KYC (live mode has no verification provider): list the records awaiting a decision,\n"+
			"show one (identity and each document's name, type, size and SHA-256), write its documents to --out,\n"+
			"approve or reject it. USER is a user id or e-mail. Safe while the server runs; its workers deliver the\n"+
			"kyc.updated events.", stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, true)
	status := cmd.String("status", "", "list only records in this status (default: those awaiting a decision)")
	out := cmd.String("out", "", "directory the documents are written to")
	reason := cmd.String("reason", "", "why (recorded in the audit log; on reject, shown to the user)")
	readEnv := envFlag(cmd, "production", "production (live users) or sandbox")
	positional, err := cmd.parse(args)
	if err != nil {
		return err
	}
	if len(positional) == 0 {
		return errors.New(kycUsage)
	}
	sub, positional := positional[0], positional[1:]
	env, live, err := readEnv()
	if err != nil {
		return err
	}
	a, sealer, err := c.open(ctx, store.Write, sub == "documents")
	if err != nil {
		return err
	}
	defer a.Close()
	db := a.DB
	if sub == "list" {
		return kycList(ctx, db, live, strings.ToUpper(*status), stdout)
	}
	if len(positional) != 1 {
		return errors.New(kycUsage)
	}
	u, err := db.People().FindKYCUser(ctx, positional[0], live)
	if err != nil {
		return fmt.Errorf("kyc %s: no %s user %q", sub, env, positional[0])
	}
	switch sub {
	case "show":
		return kycShow(ctx, db, u, stdout)
	case "documents":
		if *out == "" {
			return errors.New("kyc documents: --out DIR is required")
		}
		return kycDocuments(ctx, db, sealer, u, *out, stdout)
	case "approve", "reject":
		// The kyc.updated event's webhook deliveries are queued with the
		// decision and sent by the server.
		var k store.KYC
		err := db.WithTx(ctx, func(tx *store.Tx) error {
			k, err = kyc.Review(tx, u.ID, u.Livemode, sub == "approve", *reason)
			return err
		}, store.WithActor("cli:kyc", ""))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s %s %s\n", u.ID, u.Email, k.Status)
		return nil
	}
	return errors.New(kycUsage)
}

func kycList(ctx context.Context, db *store.DB, live bool, status string, stdout io.Writer) error {
	statuses := kyc.AwaitingDecision
	if status != "" {
		statuses = []string{status}
	}
	rows, err := db.People().ListKYC(ctx, live, statuses...)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "USER\tEMAIL\tSTATUS\tATTEMPTS\tNAME\tSINCE")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", r.UserID, r.Email, r.Status, r.Attempts, r.FullName, r.UpdatedAt.Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}

func kycShow(ctx context.Context, db *store.DB, u store.User, stdout io.Writer) error {
	k, err := db.People().KYCStatus(ctx, u.ID)
	if err != nil {
		return err
	}
	id, err := db.People().KYCIdentityOf(ctx, u.ID)
	if err != nil {
		return err
	}
	docs, err := db.People().KYCDocuments(ctx, u.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "user:      %s\nemail:     %s\nstatus:    %s\nattempts:  %d\n", u.ID, u.Email, k.Status, k.Attempts)
	if k.Reason != "" {
		fmt.Fprintf(stdout, "reason:    %s\n", k.Reason)
	}
	fmt.Fprintf(stdout, "name:      %s\nPAN:       %s\nborn:      %s\ndocuments: %d\n", id.FullName, id.PAN, id.DOB, len(docs))
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, d := range docs {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d bytes\tsha256 %s\n", d.Filename, d.Kind, d.ContentType, d.Size, d.SHA256)
	}
	return tw.Flush()
}

// kycDocuments writes each document under its id (the uploaded name is the
// user's and may not be a safe path) with the uploaded name after it.
func kycDocuments(ctx context.Context, db *store.DB, sealer *store.Sealer, u store.User, dir string, stdout io.Writer) error {
	docs, err := db.People().KYCDocuments(ctx, u.ID)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for _, d := range docs {
		data, err := db.People().OpenKYCDocument(ctx, d, sealer)
		if err != nil {
			return fmt.Errorf("document %s does not open under this master key: %w", d.ID, err)
		}
		path := filepath.Join(dir, d.ID+"-"+safeName(d.Filename))
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return err
		}
		fmt.Fprintln(stdout, path)
	}
	return nil
}

// safeName keeps letters, digits, dot, dash and underscore.
func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, filepath.Base(s))
	if strings.Trim(s, "._") == "" {
		return "document"
	}
	return s
}
