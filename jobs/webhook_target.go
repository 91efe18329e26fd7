package jobs

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// MaxWebhookURL is the longest webhook URL accepted.
const MaxWebhookURL = 2048

// LookupFunc resolves a host name to addresses; nil means the system resolver.
type LookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

func systemLookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// TargetRule is which addresses one mode's webhooks may reach.
type TargetRule int

const (
	// PublicTargets is live mode's rule: public addresses only.
	PublicTargets TargetRule = iota
	// SandboxTargets is sandbox mode's rule: public and loopback addresses
	// (a receiver on this machine), never a private network, a link-local
	// address or a cloud metadata service. A sandbox key is anyone's for
	// the asking on an internet-facing server, so its webhooks must not
	// reach into the server's own network.
	SandboxTargets
	// AnyTarget is sandbox mode with -sandbox-private-webhooks: a receiver
	// on the LAN too.
	AnyTarget
)

// RuleFor is the rule of one mode's webhooks.
func RuleFor(live, sandboxPrivate bool) TargetRule {
	switch {
	case live:
		return PublicTargets
	case sandboxPrivate:
		return AnyTarget
	}
	return SandboxTargets
}

// refuses names why the rule keeps webhooks off a, or "" if it may go.
func (r TargetRule) refuses(a netip.Addr) string {
	if r == AnyTarget {
		return ""
	}
	why := blockedAddr(a)
	if r == SandboxTargets && why == "loopback" {
		return ""
	}
	return why
}

// explain says what a refusal means to the owner of the URL.
func (r TargetRule) explain() string {
	if r == PublicTargets {
		return "live mode delivers only to public addresses"
	}
	return "sandbox webhooks go to public or loopback addresses unless the server runs with -sandbox-private-webhooks"
}

// CheckWebhookURL validates a webhook URL: absolute http or https, at most
// MaxWebhookURL long, no credentials or fragment, and a host rule allows:
// a literal address is checked as is, a name by resolving it, and every
// address it resolves to must be allowed (the dialer could pick any). In
// sandbox mode a name that does not resolve yet is accepted. Delivery
// checks the dialed address again (guardDial), because a name can resolve
// differently later (DNS rebinding). Problems are a 400 on "url".
func CheckWebhookURL(ctx context.Context, raw string, rule TargetRule, lookup LookupFunc) error {
	bad := func(msg string) error {
		return &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{"url": msg}}
	}
	if raw == "" {
		return bad("is required")
	}
	if len(raw) > MaxWebhookURL {
		return bad(fmt.Sprintf("must be at most %d characters", MaxWebhookURL))
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "" || u.Hostname() == "" {
		return bad("must be an absolute http or https URL")
	}
	if u.User != nil {
		return bad("must not carry credentials; verify the webhook signature instead")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return bad("must not have a fragment")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return bad("has an invalid port")
		}
	}
	if rule == AnyTarget {
		return nil
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		if rule == PublicTargets {
			return bad("live mode refuses " + host + ": it is a loopback name")
		}
		return nil
	}
	addrs := []netip.Addr{}
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = append(addrs, a)
	} else {
		if lookup == nil {
			lookup = systemLookup
		}
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if addrs, err = lookup(lctx, host); err != nil || len(addrs) == 0 {
			if rule == SandboxTargets {
				return nil // checked when delivered
			}
			return bad("live mode could not resolve " + host + " to check it is public")
		}
	}
	for _, a := range addrs {
		if why := rule.refuses(a); why != "" {
			return bad(fmt.Sprintf("refuses %s: %s is a %s address (%s)", host, a.Unmap(), why, rule.explain()))
		}
	}
	return nil
}

func mustPrefix(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// specialPurpose is every range a live webhook may not reach: the IANA
// IPv4 and IPv6 Special-Purpose Address Registries (documentation and
// benchmarking ranges included, and the globally reachable anycast entries
// too, since no receiver lives there), plus multicast and the deprecated
// site-local range. The first matching row names the reason, so narrower
// rows come before the ranges that contain them.
var specialPurpose = []struct {
	p   netip.Prefix
	why string
}{
	{mustPrefix("0.0.0.0/32"), "unspecified"},
	{mustPrefix("0.0.0.0/8"), "this-network"},
	{mustPrefix("10.0.0.0/8"), "private"},
	{mustPrefix("100.64.0.0/10"), "carrier-grade NAT"},
	{mustPrefix("127.0.0.0/8"), "loopback"},
	{mustPrefix("169.254.0.0/16"), "link-local"},
	{mustPrefix("172.16.0.0/12"), "private"},
	{mustPrefix("192.0.0.0/24"), "reserved"}, // IETF protocol assignments
	{mustPrefix("192.0.2.0/24"), "documentation"},
	{mustPrefix("192.31.196.0/24"), "reserved"}, // AS112
	{mustPrefix("192.52.193.0/24"), "reserved"}, // AMT
	{mustPrefix("192.88.99.0/24"), "reserved"},  // deprecated 6to4 relay anycast
	{mustPrefix("192.168.0.0/16"), "private"},
	{mustPrefix("192.175.48.0/24"), "reserved"}, // AS112 direct delegation
	{mustPrefix("198.18.0.0/15"), "benchmarking"},
	{mustPrefix("198.51.100.0/24"), "documentation"},
	{mustPrefix("203.0.113.0/24"), "documentation"},
	{mustPrefix("224.0.0.0/4"), "multicast"},
	{mustPrefix("255.255.255.255/32"), "broadcast"},
	{mustPrefix("240.0.0.0/4"), "reserved"},

	{mustPrefix("::/128"), "unspecified"},
	{mustPrefix("::1/128"), "loopback"},
	{mustPrefix("::/96"), "reserved"}, // deprecated IPv4-compatible
	{mustPrefix("64:ff9b:1::/48"), "private"},
	{mustPrefix("100::/64"), "reserved"},        // discard-only
	{mustPrefix("100:0:0:1::/64"), "reserved"},  // dummy prefix
	{mustPrefix("2001::/32"), "tunnel"},         // Teredo hides an IPv4 address
	{mustPrefix("2001:2::/48"), "benchmarking"}, // inside 2001::/23, named first
	{mustPrefix("2001:db8::/32"), "documentation"},
	{mustPrefix("2001::/23"), "reserved"},         // IETF protocol assignments
	{mustPrefix("2620:4f:8000::/48"), "reserved"}, // AS112 direct delegation
	{mustPrefix("3fff::/20"), "documentation"},
	{mustPrefix("5f00::/16"), "reserved"}, // SRv6 SIDs
	{mustPrefix("fc00::/7"), "private"},
	{mustPrefix("fe80::/10"), "link-local"},
	{mustPrefix("fec0::/10"), "private"}, // deprecated site-local
	{mustPrefix("ff00::/8"), "multicast"},
}

// nat64 and sixToFour embed an IPv4 address, which is what gets reached.
var nat64, sixToFour = mustPrefix("64:ff9b::/96"), mustPrefix("2002::/16")

// blockedAddr names why a live webhook may not go to a, or "" if it may:
// any special-purpose range, including IPv4 addresses wrapped in IPv6
// (mapped, NAT64, 6to4).
func blockedAddr(a netip.Addr) string {
	if !a.IsValid() {
		return "invalid"
	}
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			return blockedAddr(netip.AddrFrom4([4]byte(b[12:16])))
		case sixToFour.Contains(a):
			return blockedAddr(netip.AddrFrom4([4]byte(b[2:6])))
		}
	}
	a = a.WithZone("")
	for _, r := range specialPurpose {
		if r.p.Contains(a) {
			return r.why
		}
	}
	return ""
}

// errTargetRefused marks a live delivery stopped at dial time.
var errTargetRefused = errors.New("target refused")

// guardDial runs after name resolution, on the address actually dialed, so
// a name that resolved to an allowed address at registration and to a
// refused one now is still refused.
func (r TargetRule) guardDial(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot check dialed address %q", errTargetRefused, address)
	}
	if why := r.refuses(ap.Addr()); why != "" {
		return fmt.Errorf("%w: %s is a %s address (%s)", errTargetRefused, ap.Addr().Unmap(), why, r.explain())
	}
	return nil
}

// newWebhookClient builds the HTTP client of one rule. Redirects are not
// followed (a 3xx is a failed attempt): following one would let an allowed
// URL bounce the signed request to a refused one. Proxies from the
// environment are ignored, since the guard checks the address dialed.
func newWebhookClient(rule TargetRule, timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	if rule != AnyTarget {
		d.Control = rule.guardDial
	}
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy: nil, DialContext: d.DialContext, ForceAttemptHTTP2: true,
			MaxIdleConns: 64, MaxIdleConnsPerHost: 4, IdleConnTimeout: 90 * time.Second,
			TLSHandshakeTimeout: timeout, ResponseHeaderTimeout: timeout,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
