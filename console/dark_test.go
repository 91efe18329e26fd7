package console

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDarkPalette: pages say they support both schemes, and the dark
// palette's text colours meet WCAG AA (4.5:1) on the backgrounds they are
// used on.
func TestDarkPalette(t *testing.T) {
	v, err := loadViews()
	if err != nil {
		t.Fatal(err)
	}
	css := string(v.css)
	i := strings.Index(css, "@media (prefers-color-scheme: dark)")
	if i < 0 {
		t.Fatal("no dark scheme in the stylesheet")
	}
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`--([a-z-]+): (#[0-9a-f]{6})`).FindAllStringSubmatch(css[i:], -1) {
		vars[m[1]] = m[2]
	}
	const buttonText = "#12151c"
	for _, pair := range [][2]string{
		{vars["ink"], vars["bg"]}, {vars["ink"], vars["card"]}, {vars["muted"], vars["card"]}, {vars["muted"], vars["bg"]},
		{vars["brand"], vars["card"]}, {vars["bad"], vars["card"]}, {vars["ok"], vars["card"]}, {buttonText, vars["brand"]},
		{buttonText, vars["bad"]}, {buttonText, vars["ink"]}, {vars["ink"], "#12151c"}, {vars["bad"], "#2a1715"},
	} {
		if r := contrast(pair[0], pair[1]); !(r >= 4.5) { // NaN (a colour not found) fails too
			t.Errorf("%s on %s: contrast %.2f, below 4.5", pair[0], pair[1], r)
		}
	}
	if b, _ := files.ReadFile("templates/_layout.html"); !strings.Contains(string(b), `<meta name="color-scheme" content="light dark">`) {
		t.Error("the layout does not declare both colour schemes")
	}
}

// contrast is WCAG 2's contrast ratio of two #rrggbb colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func luminance(hex string) float64 {
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		n, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil || len(hex) != 7 {
			return math.NaN() // not a colour: the ratio check fails on it
		}
		c := float64(n) / 255
		if c <= 0.03928 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += w * c
	}
	return l
}
