package stellar

import (
	"errors"
	"strconv"

	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/payout"
)

// MaxMemoText is Stellar's limit for MEMO_TEXT, in bytes.
const MaxMemoText = payout.MaxMemoText

// Memo maps a payout's memo onto Stellar's memo types: as the memoType
// given at initiate, or by payout.MemoTypeOf's default (a canonical decimal
// uint64 is MEMO_ID, anything else MEMO_TEXT). A memo that cannot travel as
// its type is an error, never truncated.
func Memo(memo, memoType string) (txnbuild.Memo, error) {
	if why := payout.CheckMemo(memo, memoType); why != "" {
		return nil, errors.New(why)
	}
	switch payout.MemoTypeOf(memo, memoType) {
	case payout.MemoID:
		id, _ := strconv.ParseUint(memo, 10, 64)
		return txnbuild.MemoID(id), nil
	case payout.MemoText:
		return txnbuild.MemoText(memo), nil
	}
	return nil, nil
}
