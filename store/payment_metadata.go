package store

import (
	"context"
	"encoding/json"
)

// A payment's metadata is the client's own key/value pairs from initiate,
// kept as a JSON object in payments.metadata ('' when there are none) and
// handed back on the payment, its events and its webhooks.

func metadataText(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	b, _ := json.Marshal(m) // a map of strings always marshals
	return string(b)
}

func parseMetadata(s string) map[string]string {
	if s == "" {
		return nil
	}
	var m map[string]string
	if json.Unmarshal([]byte(s), &m) != nil {
		return nil
	}
	return m
}

// paymentMetadataColumn adds payments.metadata to a file made before
// version 5; a new file gets it from schema.sql, and a file that already
// has it is left alone, so the step can run again.
func paymentMetadataColumn(ctx context.Context, tx *Tx) error {
	return addColumns(tx, columnDef{"payments", "metadata", "TEXT NOT NULL DEFAULT ''"})
}
