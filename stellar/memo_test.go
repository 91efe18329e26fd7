package stellar

import (
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

func TestMemo(t *testing.T) {
	for _, tc := range []struct {
		name string
		memo string
		typ  string
		want txnbuild.Memo
		err  string
	}{
		{"None", "", "", nil, ""},
		{"ID", "1234567890", "", txnbuild.MemoID(1234567890), ""},
		{"IDZero", "0", "", txnbuild.MemoID(0), ""},
		{"IDLargest", "18446744073709551615", "", txnbuild.MemoID(18446744073709551615), ""},
		{"LeadingZeroIsText", "00123", "", txnbuild.MemoText("00123"), ""},
		{"SignIsText", "+5", "", txnbuild.MemoText("+5"), ""},
		{"AboveUint64IsText", "18446744073709551616", "", txnbuild.MemoText("18446744073709551616"), ""},
		{"Text", "INV-2026-0042", "", txnbuild.MemoText("INV-2026-0042"), ""},
		{"Text28Bytes", strings.Repeat("a", 28), "", txnbuild.MemoText(strings.Repeat("a", 28)), ""},
		{"ErrText29Bytes", strings.Repeat("a", 29), "", nil, "28 bytes"},
		// Nine three-byte characters: 9 runes but 27 bytes fit; ten do not.
		{"MultibyteFits", strings.Repeat("₹", 9), "", txnbuild.MemoText(strings.Repeat("₹", 9)), ""},
		{"ErrMultibyteBytesCounted", strings.Repeat("₹", 10), "", nil, "28 bytes"},
		// An explicit memoType decides, whatever the memo looks like.
		{"NumberAsText", "42", "text", txnbuild.MemoText("42"), ""},
		{"LeadingZeroAsText", "0042", "text", txnbuild.MemoText("0042"), ""},
		{"NumberAsID", "42", "id", txnbuild.MemoID(42), ""},
		{"ErrLeadingZeroAsID", "0042", "id", nil, "not a memo id"},
		{"ErrTextAsID", "INV-1", "id", nil, "not a memo id"},
		{"ErrAboveUint64AsID", "18446744073709551616", "id", nil, "not a memo id"},
		{"ErrLongTextTyped", strings.Repeat("a", 29), "text", nil, "28 bytes"},
		{"ErrUnknownType", "42", "hash", nil, "neither id nor text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			m, err := Memo(tc.memo, tc.typ)
			is.Equal(err != nil, tc.err != "")
			is.Equal(m, tc.want)
			if err != nil {
				is.True(strings.Contains(err.Error(), tc.err))
			}
		})
	}
}
