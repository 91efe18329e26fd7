package jobs

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
)

func TestBlockedAddr(t *testing.T) {
	cases := map[string]string{
		"127.0.0.1":              "loopback",
		"127.9.9.9":              "loopback",
		"::1":                    "loopback",
		"::ffff:127.0.0.1":       "loopback",
		"10.1.2.3":               "private",
		"172.16.0.1":             "private",
		"172.31.255.255":         "private",
		"192.168.1.1":            "private",
		"fd00::1":                "private",
		"169.254.169.254":        "link-local",
		"fe80::1":                "link-local",
		"0.0.0.0":                "unspecified",
		"::":                     "unspecified",
		"0.1.2.3":                "this-network",
		"224.0.0.1":              "multicast",
		"ff02::1":                "multicast",
		"100.64.0.1":             "carrier-grade NAT",
		"100.127.255.255":        "carrier-grade NAT",
		"255.255.255.255":        "broadcast",
		"240.0.0.1":              "reserved",
		"192.0.2.1":              "documentation",
		"198.51.100.7":           "documentation",
		"203.0.113.200":          "documentation",
		"2001:db8::1":            "documentation",
		"3fff::1":                "documentation",
		"198.19.255.255":         "benchmarking",
		"2001:2::1":              "benchmarking",
		"fe80::1%eth0":           "link-local",
		"64:ff9b::c000:201":      "documentation", // NAT64 of 192.0.2.1
		"198.17.255.255":         "",
		"198.20.0.0":             "",
		"203.0.114.1":            "",
		"64:ff9b::a00:1":         "private",  // NAT64 of 10.0.0.1
		"2002:7f00:1::":          "loopback", // 6to4 of 127.0.0.1
		"8.8.8.8":                "",
		"1.1.1.1":                "",
		"100.63.255.255":         "",
		"100.128.0.0":            "",
		"172.32.0.1":             "",
		"2606:4700:4700::1111":   "",
		"64:ff9b::808:808":       "", // NAT64 of 8.8.8.8
		"2a00:1450:4001:80b::e":  "",
		"::ffff:93.184.216.34":   "",
		"2002:5db8:d822::":       "", // 6to4 of a public address
		"192.0.0.8":              "reserved",
		"198.18.0.1":             "benchmarking",
		"2001:0:4136:e378::1":    "tunnel",
		"fec0::1":                "private",
		"100::1":                 "reserved",
		"::ffff:169.254.169.254": "link-local",
	}
	for addr, want := range cases {
		t.Run(addr, func(t *testing.T) {
			is := is.New(t)
			is.Equal(blockedAddr(netip.MustParseAddr(addr)), want)
		})
	}
}

// ianaSpecialPurpose is the IANA IPv4 and IPv6 Special-Purpose Address
// Registries as published, plus multicast and site-local, written out here
// apart from the code's table so a row missing there fails a test here.
var ianaSpecialPurpose = []string{
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
	"192.0.0.0/24", "192.0.0.0/29", "192.0.0.8/32", "192.0.0.9/32", "192.0.0.10/32", "192.0.0.170/32",
	"192.0.0.171/32", "192.0.2.0/24", "192.31.196.0/24", "192.52.193.0/24", "192.88.99.0/24",
	"192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
	"240.0.0.0/4", "255.255.255.255/32", "224.0.0.0/4",
	"::1/128", "::/128", "::ffff:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "100:0:0:1::/64",
	"2001::/23", "2001::/32", "2001:1::1/128", "2001:1::2/128", "2001:1::3/128", "2001:2::/48",
	"2001:3::/32", "2001:4:112::/48", "2001:10::/28", "2001:20::/28", "2001:30::/28", "2001:db8::/32",
	"2002::/16", "2620:4f:8000::/48", "3fff::/20", "5f00::/16", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
}

// lastAddr is the highest address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// TestSpecialPurposeRanges: the first and the last address of every
// special-purpose range are refused, as a literal live webhook URL too.
func TestSpecialPurposeRanges(t *testing.T) {
	for _, row := range ianaSpecialPurpose {
		t.Run(row, func(t *testing.T) {
			p := netip.MustParsePrefix(row)
			for _, a := range []netip.Addr{p.Masked().Addr(), lastAddr(p)} {
				if why := blockedAddr(a); why == "" {
					t.Errorf("%s (in %s) is not refused", a, p)
				}
				u := "http://" + netip.AddrPortFrom(a, 443).String() + "/hook"
				if err := CheckWebhookURL(context.Background(), u, PublicTargets, nil); apperr.Code(err) != apperr.ErrValidation {
					t.Errorf("live webhook %s: got %v, want a 400 on url", u, err)
				}
			}
		})
	}
	// Each row of the code's table refuses its own first address with its
	// own reason unless a narrower row before it claims that address.
	for i, r := range specialPurpose {
		t.Run("table/"+r.p.String(), func(t *testing.T) {
			a, why := r.p.Addr(), blockedAddr(r.p.Addr())
			for _, earlier := range specialPurpose[:i] {
				if earlier.p.Contains(a) {
					if why != earlier.why {
						t.Errorf("%s: %q, want the earlier row's %q", a, why, earlier.why)
					}
					return
				}
			}
			if why != r.why {
				t.Errorf("%s: %q, want %q", a, why, r.why)
			}
		})
	}
}

// fixedLookup resolves every name to the same addresses.
func fixedLookup(addrs ...string) LookupFunc {
	return func(context.Context, string) ([]netip.Addr, error) {
		var out []netip.Addr
		for _, a := range addrs {
			out = append(out, netip.MustParseAddr(a))
		}
		return out, nil
	}
}

func TestCheckWebhookURL(t *testing.T) {
	ctx := context.Background()
	public := fixedLookup("93.184.216.34")
	cases := []struct {
		name, url string
		rule      TargetRule
		lookup    LookupFunc
		want      string // substring of the url field message; "" = accepted
	}{
		{"OK", "https://hooks.example.com/payoutd", PublicTargets, public, ""},
		{"OKPort", "http://hooks.example.com:8443/x?y=1", PublicTargets, public, ""},
		{"OKSandboxLoopback", "http://127.0.0.1:9999/hook", SandboxTargets, nil, ""},
		{"OKSandboxPrivateAllowed", "http://10.0.0.5/hook", AnyTarget, nil, ""},
		{"OKSandboxMetadataAllowed", "http://169.254.169.254/latest", AnyTarget, nil, ""},
		{"OKSandboxIPv6Loopback", "http://[::1]:9999/hook", SandboxTargets, nil, ""},
		{"OKSandboxPublicName", "https://hooks.example.com/payoutd", SandboxTargets, public, ""},
		// Not resolvable yet: the address is checked when a delivery dials it.
		{"OKSandboxUnresolvable", "https://not-yet.invalid/", SandboxTargets, func(context.Context, string) ([]netip.Addr, error) {
			return nil, errors.New("no such host")
		}, ""},
		{"ErrSandboxPrivate", "http://10.0.0.5/hook", SandboxTargets, nil, "private"},
		{"ErrSandboxPrivate192", "http://192.168.1.20:8080/hook", SandboxTargets, nil, "-sandbox-private-webhooks"},
		{"ErrSandboxMetadata", "http://169.254.169.254/latest/meta-data", SandboxTargets, nil, "link-local"},
		{"ErrSandboxMetadataV6", "http://[fd00:ec2::254]/latest", SandboxTargets, nil, "private"},
		{"ErrSandboxMetadataCGNAT", "http://100.100.100.200/latest", SandboxTargets, nil, "carrier-grade NAT"},
		{"ErrSandboxLinkLocalV6", "http://[fe80::1]/hook", SandboxTargets, nil, "link-local"},
		{"ErrSandboxResolvesPrivate", "https://intranet.example.com/", SandboxTargets, fixedLookup("10.9.8.7"), "private"},
		{"OKSandboxLocalhost", "http://localhost:3000/hook", SandboxTargets, nil, ""},
		{"ErrEmpty", "", SandboxTargets, nil, "is required"},
		{"ErrRelative", "/hook", SandboxTargets, nil, "absolute http or https"},
		{"ErrScheme", "ftp://example.com/hook", SandboxTargets, nil, "absolute http or https"},
		{"ErrNoHost", "http:///hook", SandboxTargets, nil, "absolute http or https"},
		{"ErrOpaque", "http:example.com", SandboxTargets, nil, "absolute http or https"},
		{"ErrCredentials", "https://user:pw@example.com/", SandboxTargets, nil, "credentials"},
		{"ErrFragment", "https://example.com/#x", SandboxTargets, nil, "fragment"},
		{"ErrPort", "https://example.com:99999/", SandboxTargets, nil, "port"},
		{"ErrTooLong", "https://example.com/" + strings.Repeat("a", MaxWebhookURL), SandboxTargets, nil, "at most 2048"},
		{"ErrLiveLoopback", "http://127.0.0.1:9999/hook", PublicTargets, nil, "loopback"},
		{"ErrLiveIPv6Loopback", "http://[::1]/hook", PublicTargets, nil, "loopback"},
		{"ErrLivePrivate", "http://10.0.0.5/hook", PublicTargets, nil, "private"},
		{"ErrLiveMetadata", "http://169.254.169.254/latest", PublicTargets, nil, "link-local"},
		{"ErrLiveCGNAT", "http://100.64.1.1/", PublicTargets, nil, "carrier-grade NAT"},
		{"ErrLiveDocumentation", "https://203.0.113.5/hook", PublicTargets, nil, "documentation"},
		{"ErrLiveDocumentationV6", "https://[2001:db8::5]/hook", PublicTargets, nil, "documentation"},
		{"ErrLiveBenchmarking", "https://198.18.0.5/hook", PublicTargets, nil, "benchmarking"},
		{"ErrLiveResolvesDocumentation", "https://docs.example.com/", PublicTargets, fixedLookup("192.0.2.10"), "documentation"},
		{"ErrLiveLocalhost", "http://localhost:3000/hook", PublicTargets, nil, "loopback name"},
		{"ErrLiveLocalhostSub", "http://api.localhost./hook", PublicTargets, nil, "loopback name"},
		{"ErrLiveResolvesPrivate", "https://intranet.example.com/", PublicTargets, fixedLookup("10.9.8.7"), "private"},
		// Any private address among several is enough: the dialer may pick it.
		{"ErrLiveResolvesMixed", "https://mixed.example.com/", PublicTargets, fixedLookup("93.184.216.34", "127.0.0.1"), "loopback"},
		{"ErrLiveUnresolvable", "https://nowhere.invalid/", PublicTargets, func(context.Context, string) ([]netip.Addr, error) {
			return nil, errors.New("no such host")
		}, "could not resolve"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			err := CheckWebhookURL(ctx, c.url, c.rule, c.lookup)
			if c.want == "" {
				is.NoErr(err)
				return
			}
			var e *apperr.Error
			is.True(errors.As(err, &e))
			is.Equal(e.Code, apperr.ErrValidation)
			if !strings.Contains(e.Fields["url"], c.want) {
				t.Fatalf("url message %q does not mention %q", e.Fields["url"], c.want)
			}
		})
	}
}

// TestLiveClientRefusesAtDialTime is the DNS-rebinding defence: whatever a
// name resolved to at registration, the live client checks the address it
// actually dials and never connects to a loopback receiver, while the
// sandbox client does.
func TestLiveClientRefusesAtDialTime(t *testing.T) {
	is := is.New(t)
	var hits atomic.Int32
	rx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer rx.Close()

	_, err := newWebhookClient(PublicTargets, 2*time.Second).Post(rx.URL, "application/json", strings.NewReader("{}"))
	is.True(errors.Is(err, errTargetRefused))
	is.True(strings.Contains(err.Error(), "127.0.0.1 is a loopback address"))
	is.Equal(hits.Load(), int32(0))

	// The same through a name: "localhost" resolves at dial time.
	_, err = newWebhookClient(PublicTargets, 2*time.Second).Post(strings.Replace(rx.URL, "127.0.0.1", "localhost", 1), "application/json", strings.NewReader("{}"))
	is.True(errors.Is(err, errTargetRefused))
	is.Equal(hits.Load(), int32(0))

	res, err := newWebhookClient(SandboxTargets, 2*time.Second).Post(rx.URL, "application/json", strings.NewReader("{}"))
	is.NoErr(err)
	res.Body.Close()
	is.Equal(hits.Load(), int32(1))
}

// TestSandboxClientRefusesPrivateAtDialTime: the sandbox client dials
// loopback and public addresses only, unless private ones are allowed.
func TestSandboxClientRefusesPrivateAtDialTime(t *testing.T) {
	for _, c := range []struct {
		addr string
		rule TargetRule
		ok   bool
	}{
		{"127.0.0.1:9", SandboxTargets, true},
		{"[::1]:9", SandboxTargets, true},
		{"93.184.216.34:443", SandboxTargets, true},
		{"10.0.0.1:80", SandboxTargets, false},
		{"169.254.169.254:80", SandboxTargets, false},
		{"[fd00:ec2::254]:80", SandboxTargets, false},
		{"[::ffff:192.168.0.1]:80", SandboxTargets, false},
		{"127.0.0.1:9", PublicTargets, false},
	} {
		err := c.rule.guardDial("tcp", c.addr, nil)
		if c.ok != (err == nil) {
			t.Errorf("%s under rule %d: %v", c.addr, c.rule, err)
		}
		if err != nil && !errors.Is(err, errTargetRefused) {
			t.Errorf("%s: %v is not a refusal", c.addr, err)
		}
	}
	if RuleFor(false, true) != AnyTarget || newWebhookClient(AnyTarget, time.Second).Transport.(*http.Transport) == nil {
		t.Fatal("-sandbox-private-webhooks makes the sandbox rule AnyTarget")
	}
}

// TestClientDoesNotFollowRedirects: a redirect could bounce a signed live
// delivery to a private address, so a 3xx is returned as is.
func TestClientDoesNotFollowRedirects(t *testing.T) {
	is := is.New(t)
	rx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://10.0.0.1/", http.StatusTemporaryRedirect)
	}))
	defer rx.Close()
	res, err := newWebhookClient(SandboxTargets, 2*time.Second).Post(rx.URL, "application/json", strings.NewReader("{}"))
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, http.StatusTemporaryRedirect)
}

func TestParseWebhookSchedule(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		got, err := ParseWebhookSchedule("5s, 30s,2m,10m,1h,6h")
		is.NoErr(err)
		is.Equal(got, DefaultWebhookSchedule)
	})
	for _, bad := range []string{"", "5s,,1m", "-1s", "0s", "soon", "73h", strings.Repeat("1s,", 20) + "1s"} {
		t.Run("Err"+bad, func(t *testing.T) {
			is := is.New(t)
			_, err := ParseWebhookSchedule(bad)
			is.True(err != nil)
		})
	}
}
