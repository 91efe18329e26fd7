package server

// IdempotencyKeyHeld reports whether a request with userID's key is being
// processed, for tests that must know the first of two requests holds it
// before they send the second.
func (s *Server) IdempotencyKeyHeld(userID, key string) bool {
	st := idemState{userID: userID, key: key}
	s.idem.mu.Lock()
	defer s.idem.mu.Unlock()
	_, held := s.idem.keys[st.slot()]
	return held
}
