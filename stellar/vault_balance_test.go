package stellar

import (
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestJudgeBalance is the comparison of balances, one read of the vault's
// account against books holding 100.00 (10.00 reserved) after an account
// that started at ledger 7 (sequence 7<<32) used one sequence number,
// stored: a rise is a deposit; a fall, or a sequence number payoutd
// cannot account for, stops the vault and books nothing; a fall up to what
// a person accepted is booked, once, if the reservations can take it.
func TestJudgeBalance(t *testing.T) {
	const start = int64(7) << 32
	books := func(accepted int64) store.BalanceBooks {
		return store.BalanceBooks{Vault: store.Vault{Balance: 100_00, Reserved: 10_00}, KnownSeq: start + 1,
			Accepted: store.Quarantine{QuarantineFacts: store.QuarantineFacts{Shortfall: accepted}}}
	}
	read := func(seq, balance int64) store.ChainRead {
		return store.ChainRead{Exists: true, Trusts: true, Seq: seq, Balance: balance}
	}
	for _, tc := range []struct {
		name           string
		read           store.ChainRead
		books          store.BalanceBooks
		rise, accepted int64
		reasons        string
		shortfall      int64
	}{
		{"Equal", read(start+1, 100_00), books(0), 0, 0, "", 0},
		{"Rise", read(start+1, 125_00), books(0), 25_00, 0, "", 0},
		{"RiseAwaitingValue", read(start+1, 90_00), store.BalanceBooks{Vault: store.Vault{Balance: 100_00}, Awaiting: 10_00, KnownSeq: start + 1}, 0, 0, "", 0},
		{"ErrFall", read(start+1, 70_00), books(0), 0, 0, "unexplained_debit", 30_00},
		{"ErrUnknownSequence", read(start+2, 100_00), books(0), 0, 0, "unknown_sequence", 0},
		{"ErrRiseWithUnknownSequence", read(start+2, 120_00), books(0), 0, 0, "unknown_sequence", 0},
		{"ErrBoth", read(start+3, 90_00), books(0), 0, 0, "unknown_sequence,unexplained_debit", 10_00},
		{"AcceptedFall", read(start+1, 80_00), books(20_00), 0, 20_00, "", 0},
		{"ErrFallBeyondAccepted", read(start+1, 70_00), books(20_00), 0, 0, "unexplained_debit", 30_00},
		{"ErrAcceptedFallUnderReservations", read(start+1, 5_00), books(95_00), 0, 0, "unexplained_debit", 95_00},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			v := judgeBalance(tc.read, tc.books)
			is.Equal(v.rise, tc.rise)
			is.Equal(v.acceptedFall, tc.accepted)
			is.Equal(strings.Join(v.facts.Reasons, ","), tc.reasons)
			is.Equal(v.facts.Shortfall, tc.shortfall)
		})
	}
}
