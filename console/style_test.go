package console

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/kycpage"
)

// TestStylesheet: the console's stylesheet is the hosted KYC page's
// followed by the console's own rules (one palette for payoutd's pages),
// at the versioned address every page links, cached for good there, and
// served outside the browser session: fetching it sets no cookie.
func TestStylesheet(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)
	b.get("/console/")
	href := regexp.MustCompile(`<link rel="stylesheet" href="([^"]+)">`).FindStringSubmatch(b.page)
	is.True(href != nil)

	is.Equal(b.get(href[1]), http.StatusOK)
	is.True(strings.HasPrefix(b.header.Get("Content-Type"), "text/css"))
	is.True(strings.HasPrefix(b.page, string(kycpage.Stylesheet())))
	is.True(b.has(".nav a[aria-current=\"page\"]")) // the console's own
	is.Equal(b.header.Get("Cache-Control"), "public, max-age=31536000, immutable")
	is.Equal(b.header.Values("Set-Cookie"), nil)
	is.Equal(b.get("/console/assets/console.css"), http.StatusOK)
	is.Equal(b.header.Get("Cache-Control"), "no-cache") // an old or missing version is checked again
}
