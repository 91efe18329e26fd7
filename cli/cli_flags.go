package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/mail"
	"strings"
	"time"
)

// command is one subcommand's flag set with its usage line, so `-h` on it
// prints its own arguments and flags, to stdout, and succeeds.
type command struct {
	*flag.FlagSet
	stdout io.Writer
}

// newCommand makes a subcommand's flag set; synopsis follows "payoutd "
// in its usage line and about says what it does.
func newCommand(name, synopsis, about string, stdout, _ io.Writer) command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// A bad flag is returned, and Main logs it as JSON like any failure;
	// the usage goes to stdout when asked for (help).
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: payoutd %s\n\n%s\n", synopsis, about)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(w, "\nflags:")
			fs.PrintDefaults()
		}
	}
	return command{fs, stdout}
}

// isHelp reports a request for help.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// wantsHelp reports -h, -help or --help among args before a "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a != "help" && isHelp(a) {
			return true
		}
	}
	return false
}

// help prints the usage to stdout; run turns flag.ErrHelp into exit 0.
func (c command) help() error {
	c.SetOutput(c.stdout)
	c.Usage()
	return flag.ErrHelp
}

// parse parses flags that may come before or after positional arguments
// ("keys revoke KEY_ID -db x" and "keys revoke -db x KEY_ID") and returns
// the positional ones.
func (c command) parse(args []string) ([]string, error) {
	if wantsHelp(args) {
		return nil, c.help()
	}
	var positional []string
	for {
		if err := c.Parse(args); err != nil {
			return nil, fmt.Errorf("%w (payoutd %s -h lists its flags)", err, c.Name())
		}
		if c.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, c.Arg(0))
		args = c.Args()[1:]
	}
}

// parseNone parses flags and refuses positional arguments.
func (c command) parseNone(args []string) error {
	pos, err := c.parse(args)
	if err == nil && len(pos) > 0 {
		err = fmt.Errorf("%s: unexpected argument %q (see payoutd %s -h)", c.Name(), pos[0], c.Name())
	}
	return err
}

// checkEnvFlags refuses an environment variable a flag reads (its usage
// says "env NAME") whose value the flag would refuse: the defaults read
// from the environment fall back to the built-in default on a bad value,
// and PAYOUTD_SHUTDOWN_GRACE=30 silently meaning 15s is worse than an
// error. A flag given on the command line wins and is not checked.
func checkEnvFlags(fs *flag.FlagSet, getenv func(string) string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		_, rest, ok := strings.Cut(f.Usage, "env ")
		if !ok || given[f.Name] || err != nil {
			return
		}
		name := strings.TrimRight(strings.Fields(rest)[0], ");,")
		if v := getenv(name); v != "" {
			if serr := f.Value.Set(v); serr != nil {
				err = fmt.Errorf("%s=%q: not a valid -%s (%v)%s", name, v, f.Name, serr, valueHint(f))
			}
		}
	})
	return err
}

// valueHint says what a flag's value looks like.
func valueHint(f *flag.Flag) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case time.Duration:
		return ": a duration such as 30s or 2m"
	case bool:
		return ": true or false (1 or 0)"
	case int, int64:
		return ": a whole number"
	}
	return ""
}

// checkEmail accepts a bare address (no display name) with a dotted domain,
// the same rule the API applies to profile e-mails.
func checkEmail(s string) error {
	if s == "" {
		return errors.New("--email is required")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" || !strings.Contains(s[strings.LastIndexByte(s, '@')+1:], ".") {
		return fmt.Errorf("--email %q is not a valid e-mail address", s)
	}
	return nil
}
