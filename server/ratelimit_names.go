package server

import (
	"log/slog"
	"net/http"
	"slices"
)

// LimitNames are the names Config.Limits (serve -rate-limits) knows: the
// limit on failed authentications and every route's limit, named (initiate,
// confirm, itr4_export) or by its pattern ("GET /api/v1/payments"). A name
// outside them would limit nothing.
func LimitNames() []string {
	s := &Server{mux: http.NewServeMux(), log: slog.New(slog.DiscardHandler)}
	s.routes()
	names := append([]string{authFailuresLimit}, s.limitNames...)
	slices.Sort(names)
	return slices.Compact(names)
}
