package jobs

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SMTP is where notices are mailed from: a mail server's address, its
// credentials and how the connection is encrypted.
type SMTP struct {
	Host     string
	Port     int
	User     string
	Password string
	// Implicit: TLS from the first byte (smtps://). Otherwise the server's
	// STARTTLS is used when offered, and required when there are
	// credentials, so a password never crosses the network in clear.
	Implicit bool
	From     string // the From address
	// TLS overrides the TLS settings (nil: the system's roots, the host's
	// name); tests trust their own server's certificate with it.
	TLS *tls.Config
	// Timeout bounds one connection, first byte to QUIT (0: 30 s).
	Timeout time.Duration
}

// ParseSMTP reads -smtp-url (smtp[s]://user:pass@host:port) and -smtp-from.
// A missing port is 587 for smtp and 465 for smtps.
func ParseSMTP(rawURL, from string) (SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" || (u.Path != "" && u.Path != "/") ||
		u.RawQuery != "" || u.Fragment != "" {
		return SMTP{}, fmt.Errorf("-smtp-url: want smtp://user:password@host:port or smtps://…, not %q", redact(rawURL))
	}
	s := SMTP{Host: u.Hostname(), Implicit: u.Scheme == "smtps", Port: 587}
	if s.Implicit {
		s.Port = 465
	}
	if p := u.Port(); p != "" {
		if s.Port, err = strconv.Atoi(p); err != nil || s.Port < 1 || s.Port > 65535 {
			return SMTP{}, fmt.Errorf("-smtp-url: port %q is not between 1 and 65535", p)
		}
	}
	if u.User != nil {
		s.User = u.User.Username()
		s.Password, _ = u.User.Password()
	}
	a, err := mail.ParseAddress(from)
	if from == "" || err != nil {
		return SMTP{}, fmt.Errorf("-smtp-from %q: want an e-mail address such as payoutd@example.com or \"payoutd <payoutd@example.com>\"", from)
	}
	s.From = a.String()
	return s, nil
}

// redact hides a URL's credentials in a message, even one that does not
// parse.
func redact(raw string) string {
	at, scheme := strings.LastIndex(raw, "@"), strings.Index(raw, "://")
	if scheme >= 0 && at > scheme {
		return raw[:scheme+3] + "…@" + raw[at+1:]
	}
	return raw
}

// Addr is the server's host:port, for messages.
func (s SMTP) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// client is a go-mail client for s; one per message, so a server that
// closed an idle connection is never a failure.
func (s SMTP) client() (*gomail.Client, error) {
	tlsConf := s.TLS
	if tlsConf == nil {
		tlsConf = &tls.Config{ServerName: s.Host, MinVersion: tls.VersionTLS12}
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	opts := []gomail.Option{gomail.WithPort(s.Port), gomail.WithTimeout(timeout), gomail.WithTLSConfig(tlsConf)}
	switch {
	case s.Implicit:
		opts = append(opts, gomail.WithSSL())
	case s.User != "":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if s.User != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(s.User), gomail.WithPassword(s.Password))
	}
	return gomail.NewClient(s.Host, opts...)
}
