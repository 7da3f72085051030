package web

// routesPages registers the HTML pages.
func (s *Server) routesPages() {}
