package stellar

import (
	"crypto/ed25519"
	"fmt"
	"time"

	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// Envelope is a signed transaction, ready to send any number of times.
type Envelope struct {
	Hash       string // hex, as getTransaction takes it
	XDR        string // base64 TransactionEnvelope
	Seq        int64
	ValidUntil time.Time // the transaction's upper time bound
}

// Signed builds a transaction from the account at seq-1 (the next sequence
// number is seq) with ops and memo, valid until validUntil, offering fee
// stroops per operation, and signs it with seed for the network.
func Signed(passphrase string, seed []byte, seq int64, validUntil time.Time, fee int64, memo txnbuild.Memo, ops ...txnbuild.Operation) (Envelope, error) {
	if len(seed) != ed25519.SeedSize {
		return Envelope{}, fmt.Errorf("signing key has %d bytes, want %d", len(seed), ed25519.SeedSize)
	}
	kp, err := keypair.FromRawSeed([32]byte(seed))
	if err != nil {
		return Envelope{}, err
	}
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: kp.Address(), Sequence: seq - 1},
		// The SDK's increment gives the transaction its sequence number.
		IncrementSequenceNum: true,
		Operations:           ops,
		BaseFee:              fee,
		Memo:                 memo,
		Preconditions:        txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(0, validUntil.Unix())},
	})
	if err != nil {
		return Envelope{}, err
	}
	if tx, err = tx.Sign(passphrase, kp); err != nil {
		return Envelope{}, err
	}
	b64, err := tx.Base64()
	if err != nil {
		return Envelope{}, err
	}
	hash, err := tx.HashHex(passphrase)
	if err != nil {
		return Envelope{}, err
	}
	return Envelope{Hash: hash, XDR: b64, Seq: seq, ValidUntil: time.Unix(validUntil.Unix(), 0).UTC()}, nil
}
