package documents

import (
	"strconv"
	"strings"
	"time"
)

// FormatINR writes paise as rupees with Indian digit grouping: the last three
// digits of the rupee part form one group and every group above it has two
// ("12,34,567.89"), which is how amounts appear on Indian bank and tax
// papers. Negative amounts get a leading minus ("-1,000.00"). There is no
// currency sign, so callers choose "₹" or "INR" to suit the medium.
func FormatINR(paise int64) string {
	return formatMinor(paise, 2, groupIndian)
}

// FormatForeign is formatForeign for other packages (the console shows
// foreign amounts as the FIRA prints them).
func FormatForeign(minor int64, exponent int) string { return formatForeign(minor, exponent) }

// formatForeign writes a foreign-currency amount in minor units with the
// currency's ISO 4217 exponent and international grouping (1,234,567.89):
// the remitter's own bank would print it that way, and Indian grouping on a
// dollar figure would only confuse.
func formatForeign(minor int64, exponent int) string {
	return formatMinor(minor, exponent, groupWestern)
}

// formatMinor splits minor units into whole and fractional digits by string
// arithmetic, so no amount, however large, is ever rounded by a float.
func formatMinor(minor int64, exponent int, group func(string) string) string {
	neg := minor < 0
	// Through uint64 so that math.MinInt64 negates without overflow.
	u := uint64(minor)
	if neg {
		u = -u
	}
	digits := strconv.FormatUint(u, 10)
	if exponent < 0 {
		exponent = 0
	}
	if len(digits) <= exponent {
		digits = strings.Repeat("0", exponent-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-exponent], digits[len(digits)-exponent:]
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(group(whole))
	if exponent > 0 {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// groupIndian inserts commas in the lakh/crore pattern: 3 digits, then 2s.
func groupIndian(whole string) string {
	if len(whole) <= 3 {
		return whole
	}
	head, tail := whole[:len(whole)-3], whole[len(whole)-3:]
	var parts []string
	for len(head) > 2 {
		parts = append([]string{head[len(head)-2:]}, parts...)
		head = head[:len(head)-2]
	}
	parts = append([]string{head}, parts...)
	return strings.Join(parts, ",") + "," + tail
}

// groupWestern inserts commas every three digits.
func groupWestern(whole string) string {
	var parts []string
	for len(whole) > 3 {
		parts = append([]string{whole[len(whole)-3:]}, parts...)
		whole = whole[:len(whole)-3]
	}
	parts = append([]string{whole}, parts...)
	return strings.Join(parts, ",")
}

// timestampLayout is the API's timestamp form (RFC 3339, UTC, milliseconds),
// kept identical here so an export's generatedAt matches the API's.
const timestampLayout = "2006-01-02T15:04:05.000Z07:00"

// formatTimestamp writes t in UTC as "2026-11-21T10:00:00.000Z".
func formatTimestamp(t time.Time) string {
	return t.UTC().Format(timestampLayout)
}
