package india_test

import (
	"math"
	"testing"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

func TestAmountInWordsINR(t *testing.T) {
	for _, c := range []struct {
		paise int64
		want  string
	}{
		{12345678, "Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Seventy-Eight Paise Only"},
		{50000, "Rupees Five Hundred Only"},
		{0, "Rupees Zero Only"},
		{1, "Rupees Zero and One Paise Only"},
		{100, "Rupees One Only"},
		{1900, "Rupees Nineteen Only"},
		{2000, "Rupees Twenty Only"},
		{9999, "Rupees Ninety-Nine and Ninety-Nine Paise Only"},
		{rs(1_000), "Rupees One Thousand Only"},
		{rs(1_01_010), "Rupees One Lakh One Thousand Ten Only"},
		{rs(10_00_000), "Rupees Ten Lakh Only"},
		{rs(99_99_999) + 99, "Rupees Ninety-Nine Lakh Ninety-Nine Thousand Nine Hundred Ninety-Nine and Ninety-Nine Paise Only"},
		{rs(1_00_00_000), "Rupees One Crore Only"},
		{rs(1_00_00_100), "Rupees One Crore One Hundred Only"},
		{rs(12_34_56_789) + 1, "Rupees Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine and One Paise Only"},
		{rs(10_00_00_00_000), "Rupees One Thousand Crore Only"},
		{rs(1_00_000_00_00_000), "Rupees One Lakh Crore Only"},
		{-50000, "Minus Rupees Five Hundred Only"},
		// ₹92,23,37,20,36,85,47,758.07 = 9,22,33,72,036 crore and 85,47,758.
		{math.MaxInt64, "Rupees Nine Hundred Twenty-Two Crore Thirty-Three Lakh Seventy-Two Thousand Thirty-Six Crore Eighty-Five Lakh Forty-Seven Thousand Seven Hundred Fifty-Eight and Seven Paise Only"},
		{math.MinInt64, "Minus Rupees Nine Hundred Twenty-Two Crore Thirty-Three Lakh Seventy-Two Thousand Thirty-Six Crore Eighty-Five Lakh Forty-Seven Thousand Seven Hundred Fifty-Eight and Eight Paise Only"},
	} {
		is.New(t).Equal(india.AmountInWordsINR(c.paise), c.want)
	}
}
