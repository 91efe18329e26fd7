package server

// accountRoutes registers profile, KYC, wallet and hosted-verification routes.
func (s *Server) accountRoutes() {}
