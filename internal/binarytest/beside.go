package binarytest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

// OpenBeside opens the database at path in this process beside a running
// server, as an admin command does (store.Write: no second server lock).
func OpenBeside(t testing.TB, path string, sealer *store.Sealer) *app.App {
	t.Helper()
	schema, err := os.ReadFile(filepath.Join(root(), "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	lock, err := store.Lock(path, store.Write)
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.Open(context.Background(), app.Config{Path: path, Schema: string(schema), Sealer: sealer, Lock: lock})
	if err != nil {
		lock.Release()
		t.Fatal(err)
	}
	return a
}

// SubmitLiveKYC does what a live user does on the hosted page, on the
// database in dir: identity details, then one document.
func SubmitLiveKYC(t testing.TB, dir, email string, doc []byte) {
	t.Helper()
	ctx := context.Background()
	sealer, err := store.LoadOrCreateMasterKey(filepath.Join(dir, "payoutd.db.masterkey"))
	if err != nil {
		t.Fatal(err)
	}
	a := OpenBeside(t, filepath.Join(dir, "payoutd.db"), sealer)
	defer a.Close()
	db := a.DB
	u, err := db.People().FindUserByEmail(ctx, email, true)
	if err != nil {
		t.Fatal(err)
	}
	err = db.WithTx(ctx, func(tx *store.Tx) error {
		st, err := kyc.Start(tx, u.ID, true)
		if err != nil {
			return err
		}
		if err := kyc.SaveIdentity(tx, st.Session.ID, store.KYCIdentity{FullName: "Asha Rao", PAN: "ABCDE1234F", DOB: "1990-04-01"}); err != nil {
			return err
		}
		_, _, err = kyc.SubmitDocument(tx, st.Session.ID, store.KYCDocument{Kind: "PAN_CARD", Filename: "../pan card.pdf", ContentType: "application/pdf"}, doc, sealer)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
