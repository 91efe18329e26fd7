package rates

import (
	"context"
	"log/slog"
	"os"
	"time"
)

// FileCheck is how often a -rates file is looked at for a change.
const FileCheck = 5 * time.Second

// WatchFile re-reads the rates file at path whenever it changes (its
// modification time or size, looked at every check) and whenever reload
// delivers (SIGHUP), until ctx ends. A file that does not read or parse
// keeps the rates in hand; /readyz shows the error until a good read.
func (s *Source) WatchFile(ctx context.Context, path string, check time.Duration, reload <-chan os.Signal, log *slog.Logger) {
	last, _ := os.Stat(path)
	load := func(why string) {
		if err := s.LoadFile(path); err != nil {
			s.failed(err)
			log.Warn("rates: the rates file does not read; keeping the rates in hand", "file", path, "error", err.Error())
			return
		}
		log.Info("rates: re-read the rates file", "file", path, "why", why)
	}
	tick := time.NewTicker(check)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-reload:
			last, _ = os.Stat(path)
			load("SIGHUP")
		case <-tick.C:
			st, err := os.Stat(path)
			if err != nil {
				s.failed(err)
				continue
			}
			if last == nil || !st.ModTime().Equal(last.ModTime()) || st.Size() != last.Size() {
				last = st
				load("changed")
			}
		}
	}
}

// failed keeps a refresh's failure for /readyz.
func (s *Source) failed(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}
