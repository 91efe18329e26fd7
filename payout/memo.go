package payout

import (
	"fmt"
	"strconv"
)

// Memo types: how a payout's memo travels on the live rail (Stellar's
// MEMO_ID and MEMO_TEXT).
const (
	MemoID   = "id"
	MemoText = "text"
)

// MaxMemoText is Stellar's limit for a text memo, in bytes.
const MaxMemoText = 28

// MemoTypeOf is the type a memo travels as: the one given at initiate, else
// id for a canonical decimal uint64 (anchors and exchanges route deposits by
// that number, and many refuse a text memo) and text for anything else; ""
// when there is no memo.
func MemoTypeOf(memo, given string) string {
	switch {
	case memo == "":
		return ""
	case given != "":
		return given
	case isMemoID(memo):
		return MemoID
	}
	return MemoText
}

// isMemoID reports a canonical decimal uint64: no sign, no leading zero,
// so the number sent is the text the user wrote.
func isMemoID(memo string) bool {
	id, err := strconv.ParseUint(memo, 10, 64)
	return err == nil && strconv.FormatUint(id, 10) == memo
}

// CheckMemo says why memo cannot travel as typ ("" when it can): an id must
// be a whole number from 0 to 18446744073709551615 written without leading
// zeros, a text at most MaxMemoText bytes. A memo that does not fit is
// refused, never cut: a cut memo would land the money in the wrong
// sub-account.
func CheckMemo(memo, typ string) string {
	switch MemoTypeOf(memo, typ) {
	case "":
		return ""
	case MemoID:
		if !isMemoID(memo) {
			return "is not a memo id: want a whole number from 0 to 18446744073709551615 without leading zeros or a sign"
		}
	case MemoText:
		if len(memo) > MaxMemoText {
			hint := ""
			if typ == "" {
				hint = " (a number up to 18446744073709551615 is sent as a memo id)"
			}
			return fmt.Sprintf("is %d bytes; a Stellar text memo holds at most %d bytes%s", len(memo), MaxMemoText, hint)
		}
	default:
		return "has memoType " + strconv.Quote(typ) + ", which is neither id nor text"
	}
	return ""
}
