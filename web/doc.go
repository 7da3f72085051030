// Package web serves Quarry over HTTP: the JSON API of the specification,
// server-sent progress events, and the server-rendered pages (html/template
// with htmx, vendored and embedded). It calls each job only through its
// vocabulary's Service interface: investigation.Service, analysis.Service,
// room.Service and research.Service; the services (investigations,
// analyses, rooms, researches) implement them.
//
// Every route is a line of one table (routes.go) naming its access rule
// (access.go): open, signed in, or signed in as the owner of the
// investigation or analysis of its path. With PasswordAuth every job
// needs a signed-in user, and another user's investigation or analysis
// is not found; in single-user mode the local owner owns everything.
package web
