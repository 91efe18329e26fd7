package server

// webhookRoutes registers webhook endpoint management and the event log.
func (s *Server) webhookRoutes() {}
