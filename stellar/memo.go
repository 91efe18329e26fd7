package stellar

import (
	"fmt"
	"strconv"

	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// MaxMemoText is Stellar's limit for MEMO_TEXT, in bytes.
const MaxMemoText = 28

// Memo maps a payout's memo onto Stellar's memo types. A canonical decimal
// uint64 becomes MEMO_ID, because anchors and exchanges route deposits by
// that number and many refuse a text memo; anything else is MEMO_TEXT when
// its UTF-8 bytes fit. A longer memo cannot travel and is an error, never
// truncated: a cut memo would land the money in the wrong sub-account.
func Memo(memo string) (txnbuild.Memo, error) {
	if memo == "" {
		return nil, nil
	}
	if id, err := strconv.ParseUint(memo, 10, 64); err == nil && strconv.FormatUint(id, 10) == memo {
		return txnbuild.MemoID(id), nil
	}
	if len(memo) > MaxMemoText {
		return nil, fmt.Errorf("is %d bytes; a Stellar text memo holds at most %d bytes (a number up to 18446744073709551615 is sent as a memo id)", len(memo), MaxMemoText)
	}
	return txnbuild.MemoText(memo), nil
}
