package cli

import (
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/server"
)

// maxWorkers bounds -workers: River's limit for one queue.
const maxWorkers = 10_000

// check refuses, naming the flag, every setting serve could only find wrong
// after the database or its key exists (or never): each one is read before
// anything is created.
func (c *serveConfig) check() error {
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"-sandbox-unknown-window", c.unknownWindow}, {"-shutdown-grace", c.grace}} {
		if d.v <= 0 {
			return fmt.Errorf("%s %s: must be positive", d.flag, d.v)
		}
	}
	if c.jobTimeout < time.Second {
		return fmt.Errorf("-job-timeout %s: at least 1s", c.jobTimeout)
	}
	if c.workers < 1 || c.workers > maxWorkers {
		return fmt.Errorf("-workers %d: between 1 and %d", c.workers, maxWorkers)
	}
	if c.mode != "sandbox" && c.mode != "live" {
		return fmt.Errorf("-mode must be sandbox or live, not %q", c.mode)
	}
	if c.baseURL != "" {
		if err := checkBaseURL(c.baseURL); err != nil {
			return err
		}
	}
	if err := c.liveRates.check(); err != nil {
		return err
	}
	if err := c.checkSMTP(); err != nil {
		return err
	}
	return c.stellar.check()
}

// checkSMTP reads -smtp-url and -smtp-from: both or neither.
func (c *serveConfig) checkSMTP() error {
	switch {
	case c.smtpURL == "" && c.smtpFrom == "":
		return nil
	case c.smtpURL == "":
		return fmt.Errorf("-smtp-from %q needs -smtp-url, the mail server notices are sent through", c.smtpFrom)
	}
	s, err := jobs.ParseSMTP(c.smtpURL, c.smtpFrom)
	if err != nil {
		return err
	}
	c.smtp = &s
	return nil
}

// checkBaseURL accepts an absolute http(s) URL with a host and nothing
// after its path: links are made by appending paths to it.
func checkBaseURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("-base-url %q: an http:// or https:// URL with a host and no query, such as https://payouts.example.com", s)
	}
	return nil
}

// parseLimits reads -rate-limits: name=per-minute pairs, each name one the
// server knows (a misspelt name would limit nothing).
func parseLimits(s string) (map[string]int, error) {
	out := map[string]int{}
	known := server.LimitNames()
	for _, kv := range strings.Split(s, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		var n int
		if _, err := fmt.Sscanf(v, "%d", &n); !ok || err != nil || n < 1 {
			return nil, fmt.Errorf("-rate-limits: bad entry %q (want name=requests per minute, at least 1)", kv)
		}
		if k = strings.TrimSpace(k); !slices.Contains(known, k) {
			hint := ""
			if near := nearest(k, known); near != "" {
				hint = fmt.Sprintf("; did you mean %s?", near)
			}
			return nil, fmt.Errorf("-rate-limits: no limit is named %q%s (initiate, confirm, itr4_export, auth-failures, or a route as METHOD /path)", k, hint)
		}
		out[k] = n
	}
	return out, nil
}

// parsePrefixes reads -trusted-proxies: a comma-separated list of addresses
// and CIDRs. A prefix of every address (0.0.0.0/0, ::/0) is refused: it
// would let any client name the address the limit on failed
// authentications counts.
func parsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		if p, err := netip.ParsePrefix(v); err == nil {
			if p.Bits() == 0 {
				return nil, fmt.Errorf("%q trusts every address: name your proxies' addresses or their network", v)
			}
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(v); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		} else {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR", v)
		}
	}
	return out, nil
}
