package server

// webhookRoutes registers webhook endpoint management and the event log
// (docs/webhooks.md).
func (s *Server) webhookRoutes() {
	const wm = "webhooks:manage"
	s.api("POST /api/v1/webhooks", routeOpts{scope: wm}, s.handleWebhookCreate)
	s.api("GET /api/v1/webhooks", routeOpts{scope: wm}, s.handleWebhookList)
	s.api("GET /api/v1/webhooks/{id}", routeOpts{scope: wm}, s.handleWebhookGet)
	s.api("DELETE /api/v1/webhooks/{id}", routeOpts{scope: wm}, s.handleWebhookDelete)
	s.api("POST /api/v1/webhooks/{id}/rotate", routeOpts{scope: wm}, s.handleWebhookRotate)
	s.api("POST /api/v1/webhooks/{id}/enable", routeOpts{scope: wm}, s.handleWebhookEnable)
	s.api("GET /api/v1/webhooks/{id}/deliveries", routeOpts{scope: wm, query: listQuery("eventId")}, s.handleWebhookDeliveries)

	// webhooks:manage or payments:read, checked in the handlers.
	s.api("GET /api/v1/events", routeOpts{query: listQuery("type")}, s.handleEventList)
	s.api("GET /api/v1/events/{id}", routeOpts{}, s.handleEventGet)
}
