package store

import (
	"fmt"
	"time"

	"github.com/payoutd/payoutd/money"
)

// Settle records that the rail settled p at settledAt, worth inr paise at
// rate: the payout moves to CONFIRMED, its reserved amount leaves the vault
// for good and the ledger books it (postSettlement), all in this
// transaction. settledAt is when the money moved (a live payout: the close
// time of the ledger that applied it), which decides its financial year
// and GST month.
func (g LedgerTx) Settle(p *Payment, inr int64, rate string, settledAt time.Time) error {
	tx := g.tx
	reserved := p.Reserved
	settledAt = settledAt.UTC().Truncate(time.Millisecond)
	err := tx.transition(p, StatusConfirmed, func(n *Payment) {
		n.AmountINR, n.SettlementRate, n.SettledAt, n.Reserved = &inr, rate, &settledAt, 0
	})
	if err != nil {
		return err
	}
	if reserved > 0 {
		if err := tx.adjustVault(p.VaultID, -reserved, -reserved); err != nil {
			return err
		}
	}
	return tx.postSettlement(*p)
}

// postSettlement books a settled payout: the vault is debited the foreign
// amount, FX clearing converts it at the settlement rate, and the user's INR
// settlement account is credited; with a sequestration policy on, its share
// moves on to the tax reserve in the same transaction. The unique index on
// (payment_id, kind) makes a second posting for the same payment fail.
func (tx *Tx) postSettlement(p Payment) error {
	if p.AmountINR == nil {
		return fmt.Errorf("settlement of %s has no INR value", p.ID)
	}
	inr := *p.AmountINR
	vault, err := tx.ledgerAccount(p.UserID, p.Livemode, AccountVault, p.Currency, p.VaultID)
	if err != nil {
		return err
	}
	settle, err := tx.ledgerAccount(p.UserID, p.Livemode, AccountSettlement, "INR", "")
	if err != nil {
		return err
	}
	credit := Posting{AccountID: settle, Amount: inr, Currency: "INR", ID: NewID("je")}
	postings := []Posting{{AccountID: vault, Amount: -p.Amount, Currency: p.Currency}}
	if p.Currency == "INR" {
		postings = append(postings, credit)
	} else {
		fxForeign, err := tx.ledgerAccount("", p.Livemode, AccountFXClearing, p.Currency, "")
		if err != nil {
			return err
		}
		fxINR, err := tx.ledgerAccount("", p.Livemode, AccountFXClearing, "INR", "")
		if err != nil {
			return err
		}
		postings = append(postings, Posting{AccountID: fxForeign, Amount: p.Amount, Currency: p.Currency},
			Posting{AccountID: fxINR, Amount: -inr, Currency: "INR"}, credit)
	}
	cur, _ := money.Lookup(p.Currency)
	desc := fmt.Sprintf("Payout %s settled: %s %s at %s", p.ID, money.Format(p.Amount, cur), p.Currency, p.SettlementRate)
	if _, err := tx.post(LedgerTxn{UserID: p.UserID, Livemode: p.Livemode, Kind: "settlement", PaymentID: p.ID, Description: desc, Postings: postings}); err != nil {
		return err
	}
	tx.credit = postedCredit{paymentID: p.ID, entryID: credit.ID, amount: inr}
	return tx.sequester(p, settle, inr)
}

// postedCredit is the settlement credit this transaction posted, so that
// reconciling the payout in the same transaction need not look it up.
type postedCredit struct {
	paymentID, entryID string
	amount             int64
}

// sequester moves the policy's share of a settlement to the tax reserve.
func (tx *Tx) sequester(p Payment, settle string, inr int64) error {
	pol, err := tx.Payments().SequestrationPolicy(p.UserID)
	if err != nil || !pol.Enabled || pol.RateBP == 0 {
		return err
	}
	share := money.PercentOf(inr, pol.RateBP)
	if share == 0 {
		return nil
	}
	reserve, err := tx.ledgerAccount(p.UserID, p.Livemode, AccountTaxReserve, "INR", "")
	if err != nil {
		return err
	}
	desc := fmt.Sprintf("Tax reserve: %s%% of payout %s", formatBP(pol.RateBP), p.ID)
	_, err = tx.post(LedgerTxn{UserID: p.UserID, Livemode: p.Livemode, Kind: "sequestration", PaymentID: p.ID, Description: desc,
		Postings: []Posting{{AccountID: settle, Amount: -share, Currency: "INR"}, {AccountID: reserve, Amount: share, Currency: "INR"}}})
	return err
}

// formatBP renders hundredths of a percent as a decimal ("12.5", "10").
func formatBP(bp int64) string {
	s := fmt.Sprintf("%d.%02d", bp/100, bp%100)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}
