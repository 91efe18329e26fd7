package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

func healthCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("health", "health [-addr ADDR]",
		"Asks a running server's /readyz and exits 0 when it is ready, 1 otherwise: a container HEALTHCHECK\n"+
			"or a load balancer's probe. It opens no database.", stdout, stderr)
	addr := cmd.String("addr", envOr(getenv, "PAYOUTD_ADDR", ":8080"), "the server's listen address, host:port or URL (env PAYOUTD_ADDR)")
	timeout := cmd.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	if err := cmd.parseNone(args); err != nil {
		return err
	}
	url := readyzURL(*addr)
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %s: %w", url, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s answered %d: %s", url, res.StatusCode, strings.TrimSpace(string(body)))
	}
	fmt.Fprintf(stdout, "ready: %s\n", url)
	return nil
}

// readyzURL turns a listen address (":8080", "0.0.0.0:8080",
// "[::]:8080") or a base URL into the URL of its /readyz.
func readyzURL(addr string) string {
	if strings.HasPrefix(addr, "http://") || strings.HasPrefix(addr, "https://") {
		return strings.TrimRight(addr, "/") + "/readyz"
	}
	switch {
	case strings.HasPrefix(addr, ":"):
		addr = "localhost" + addr
	case strings.HasPrefix(addr, "0.0.0.0:"):
		addr = "localhost" + strings.TrimPrefix(addr, "0.0.0.0")
	case strings.HasPrefix(addr, "[::]:"):
		addr = "localhost" + strings.TrimPrefix(addr, "[::]")
	}
	return "http://" + addr + "/readyz"
}
