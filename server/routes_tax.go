package server

// taxRoutes registers FIRA, tax liability and exports, GST, ITR-4 and audit routes.
func (s *Server) taxRoutes() {}
