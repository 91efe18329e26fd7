package jobs

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

// SignWebhook is the Standard Webhooks webhook-signature header value: one
// "v1,<base64 HMAC-SHA256(key, id.timestamp.body)>" per key, space-separated,
// so during a rotation grace period a receiver holding either secret can
// verify.
func SignWebhook(keys [][]byte, msgID string, timestamp int64, body []byte) string {
	sigs := make([]string, 0, len(keys))
	for _, k := range keys {
		mac := hmac.New(sha256.New, k)
		mac.Write([]byte(msgID))
		mac.Write([]byte{'.'})
		mac.Write([]byte(strconv.FormatInt(timestamp, 10)))
		mac.Write([]byte{'.'})
		mac.Write(body)
		sigs = append(sigs, "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	return strings.Join(sigs, " ")
}
