package store

// hookCache remembers which (user, mode) pairs have no enabled webhook
// endpoint, so the event written with every state change skips the endpoint
// lookup for the many users who never register one. Only the committer
// goroutine touches it (every WebhookTargets call and every write that can
// add an enabled endpoint run inside a transaction); it is forgotten when an
// endpoint is created or enabled, and when another process writes the file
// (PRAGMA data_version). Deleting or disabling can only make "none" truer.
type hookCache struct {
	none map[hookKey]bool
}

type hookKey struct {
	userID   string
	livemode bool
}

func (c *hookCache) remember(k hookKey) {
	if c.none == nil {
		c.none = map[hookKey]bool{}
	}
	if len(c.none) > 100_000 { // bound memory; a miss only costs a lookup
		c.none = map[hookKey]bool{}
	}
	c.none[k] = true
}

func (c *hookCache) forget() {
	if c != nil {
		c.none = nil
	}
}
