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
		want txnbuild.Memo
		err  bool
	}{
		{"None", "", nil, false},
		{"ID", "1234567890", txnbuild.MemoID(1234567890), false},
		{"IDZero", "0", txnbuild.MemoID(0), false},
		{"IDLargest", "18446744073709551615", txnbuild.MemoID(18446744073709551615), false},
		{"LeadingZeroIsText", "00123", txnbuild.MemoText("00123"), false},
		{"SignIsText", "+5", txnbuild.MemoText("+5"), false},
		{"AboveUint64IsText", "18446744073709551616", txnbuild.MemoText("18446744073709551616"), false},
		{"Text", "INV-2026-0042", txnbuild.MemoText("INV-2026-0042"), false},
		{"Text28Bytes", strings.Repeat("a", 28), txnbuild.MemoText(strings.Repeat("a", 28)), false},
		{"ErrText29Bytes", strings.Repeat("a", 29), nil, true},
		// Nine three-byte characters: 9 runes but 27 bytes fit; ten do not.
		{"MultibyteFits", strings.Repeat("₹", 9), txnbuild.MemoText(strings.Repeat("₹", 9)), false},
		{"ErrMultibyteBytesCounted", strings.Repeat("₹", 10), nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			m, err := Memo(tc.memo)
			is.Equal(err != nil, tc.err)
			is.Equal(m, tc.want)
			if err != nil {
				is.True(strings.Contains(err.Error(), "28 bytes"))
			}
		})
	}
}
