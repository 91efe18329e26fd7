package server

import (
	"net/http"
	"strconv"
	"strings"
)

// listWindow is the part of a list request every list shares: page and
// limit, and the keyset cursor after (the id of the last item the
// client has seen), which stays put when items are added while it pages.
type listWindow struct {
	Page, Limit int
	After       string
}

// listParams parses page, limit and after: page < 1 or a non-number is 400,
// a limit above 100 is clamped, and after must look like an
// id of the list (validAfter says what that is, in words for the error).
func listParams(r *http.Request, defLimit int, validAfter func(string) bool, afterWant string) (listWindow, error) {
	w := listWindow{Page: 1, Limit: defLimit}
	q := r.URL.Query()
	var err error
	if v := q.Get("page"); v != "" {
		if w.Page, err = strconv.Atoi(v); err != nil || w.Page < 1 {
			return w, fieldError("page", "must be a whole number of at least 1")
		}
	}
	if v := q.Get("limit"); v != "" {
		if w.Limit, err = strconv.Atoi(v); err != nil || w.Limit < 1 {
			return w, fieldError("limit", "must be a whole number of at least 1")
		}
		w.Limit = min(w.Limit, 100)
	}
	if w.Page > 1_000_000 {
		return w, fieldError("page", "is too large")
	}
	if w.After = q.Get("after"); w.After != "" && (len(w.After) > 64 || !validAfter(w.After)) {
		return w, fieldError("after", "must be "+afterWant)
	}
	return w, nil
}

// idPrefixed accepts ids of the form prefix_… (the list's own kind).
func idPrefixed(prefix string) func(string) bool {
	return func(id string) bool { return len(id) > len(prefix) && strings.HasPrefix(id, prefix) }
}

// pageInfo is what every list reply carries next to its items.
type pageInfo struct {
	Total      int    `json:"total"`
	Page       int    `json:"page"`
	Limit      int    `json:"limit"`
	HasMore    bool   `json:"hasMore"`
	NextCursor string `json:"nextCursor,omitempty"`
}

// pageOf cuts the extra item the store reads past a page (store.pageArgs)
// and says whether more follow and where the next page starts.
func pageOf[T any](items []T, w listWindow, total int, id func(T) string) ([]T, pageInfo) {
	info := pageInfo{Total: total, Page: w.Page, Limit: w.Limit}
	if len(items) > w.Limit {
		items = items[:w.Limit]
		info.HasMore, info.NextCursor = true, id(items[len(items)-1])
	}
	return items, info
}
