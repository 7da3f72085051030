package web

import (
	"html/template"
	"net/http"

	"github.com/quarry-dev/quarry"
)

// handlerFunc is a handler that returns its error, for the route's kind to
// write: in the API's JSON envelope or on the error page.
type handlerFunc func(http.ResponseWriter, *http.Request) error

// kind is how a route answers.
type kind int

const (
	// api answers JSON, errors in the specification's envelope; a
	// state-changing request a browser marks as cross-site is refused.
	api kind = iota
	// page answers HTML, errors on the error page; UNAUTHORIZED sends a
	// browser to the sign-in page, which comes back afterwards.
	page
	// form is a page that takes a form post (or, with htmx, answers a
	// fragment); a post from another site is refused.
	form
)

// route is one line of the route table: the method and path, who may use
// it, how it answers and its handler.
type route struct {
	pattern string
	rule    rule
	kind    kind
	h       handlerFunc
}

// routes is every route of the server, in one table: each job's API, then
// its pages. A job the server was not given (no Options.Analyses, no
// Rooms, Research or Auth) has no routes. Every route names its access
// rule (access.go), enforced before its handler runs: open, signedIn, or
// the investigation or analysis of the path being the user's. Pages work
// without JavaScript: every form is a plain POST answered 303
// (Post/Redirect/Get) or with the page and the error at its field; with
// htmx (HX-Request) the same handlers answer fragments.
func (s *Server) routes() []route {
	var table []route
	add := func(on bool, rs ...route) {
		if on {
			table = append(table, rs...)
		}
	}
	user := s.withUser
	inRoom := func(h inRoomHandler) handlerFunc { return s.withUser(s.inRoom(h)) }
	pw, passwords := s.opt.Auth.(*PasswordAuth)
	rooms := s.opt.Rooms != nil && s.opt.Auth != nil
	research := s.opt.Research != nil && s.opt.Auth != nil

	// Investigations: the specification's API, under /api/sessions.
	add(true,
		route{"POST /api/sessions", signedIn, api, s.createSession},
		route{"GET /api/sessions", signedIn, api, s.listSessions},
		route{"GET /api/sessions/{id}", ownSession, api, s.getSession},
		route{"DELETE /api/sessions/{id}", ownSession, api, s.deleteSession},
		route{"POST /api/sessions/{id}/files", ownSession, api, s.uploadFile},
		route{"GET /api/sessions/{id}/files", ownSession, api, s.listFiles},
		route{"PUT /api/sessions/{id}/files/{fid}", ownSession, api, s.describeFile},
		route{"DELETE /api/sessions/{id}/files/{fid}", ownSession, api, s.removeFile},
		route{"POST /api/sessions/{id}/investigate", ownSession, api, s.investigate},
		route{"GET /api/sessions/{id}/report", ownSession, api, s.getReport},
		route{"GET /api/sessions/{id}/report/download", ownSession, api, s.downloadReport},
		route{"GET /api/sessions/{id}/explanations", ownSession, api, s.getExplanations},
		route{"GET /api/sessions/{id}/events", ownSession, api, s.events},
		route{"POST /api/sessions/{id}/chat", ownSession, api, s.chat},
		route{"GET /api/sessions/{id}/chat", ownSession, api, s.chatHistory},
	)
	// Investigations' pages: the home page lists them.
	add(true,
		route{"GET /{$}", signedIn, page, s.home},
		route{"GET /sessions", open, page, redirect("/")},
		route{"POST /sessions", signedIn, form, s.createSessionPage},
		route{"GET /sessions/{id}", ownSession, page, s.sessionPage},
		route{"POST /sessions/{id}/files", ownSession, form, s.uploadPage},
		route{"POST /sessions/{id}/files/{fid}/description", ownSession, form, s.describePage},
		route{"POST /sessions/{id}/files/{fid}/delete", ownSession, form, s.removeFilePage},
		route{"POST /sessions/{id}/investigate", ownSession, form, s.investigatePage},
		route{"POST /sessions/{id}/chat", ownSession, form, s.chatPage},
		route{"POST /sessions/{id}/delete", ownSession, form, s.deleteSessionPage},
		route{"GET /sessions/{id}/artifacts/{path...}", ownSession, page, s.artifact},
	)

	// Analyses: the list with the form that starts one, and each with its
	// plan, steps, artifacts and audit trail; analysis.js follows a
	// running analysis and htmx pages tables and verifies the log in
	// place.
	add(s.opt.Analyses != nil,
		route{"POST /api/analyses", signedIn, api, s.startAnalysis},
		route{"GET /api/analyses", signedIn, api, s.listAnalyses},
		route{"GET /api/analyses/{id}", ownAnalysis, api, s.getAnalysis},
		route{"GET /api/analyses/{id}/events", ownAnalysis, api, s.analysisEvents},
		route{"GET /api/analyses/{id}/audit", ownAnalysis, api, s.analysisAudit},
		route{"GET /api/analyses/{id}/audit/verify", ownAnalysis, api, s.verifyAnalysisAudit},
		route{"GET /api/analyses/{id}/artifacts/{aid}", ownAnalysis, api, s.analysisArtifact},
		route{"GET /api/recipes", signedIn, api, s.listRecipes},

		route{"GET /analyses", signedIn, page, s.analysesPage},
		route{"POST /analyses", signedIn, form, s.startAnalysisPage},
		route{"GET /analyses/{id}", ownAnalysis, page, s.analysisPage},
		route{"GET /analyses/{id}/verify", ownAnalysis, page, s.verifyAnalysisPage},
		route{"GET /analyses/{id}/artifacts/{aid}", ownAnalysis, page, s.analysisArtifactPage},
	)

	// Data rooms: the rooms service decides who may see a room (a member)
	// and do what in it (by role); another user's room is NOT_FOUND.
	// rooms.js shows upload progress and follows processing over the
	// room's event stream.
	add(rooms,
		route{"GET /api/rooms", signedIn, api, user(s.listRooms)},
		route{"POST /api/rooms", signedIn, api, user(s.createRoom)},
		route{"GET /api/rooms/{room}", signedIn, api, inRoom(s.getRoom)},
		route{"DELETE /api/rooms/{room}", signedIn, api, inRoom(s.deleteRoom)},
		route{"GET /api/rooms/{room}/members", signedIn, api, inRoom(s.listMembers)},
		route{"POST /api/rooms/{room}/members", signedIn, api, inRoom(s.addMember)},
		route{"PUT /api/rooms/{room}/members/{user}", signedIn, api, inRoom(s.putMember)},
		route{"DELETE /api/rooms/{room}/members/{user}", signedIn, api, inRoom(s.removeMember)},
		route{"GET /api/rooms/{room}/documents", signedIn, api, inRoom(s.listDocuments)},
		route{"POST /api/rooms/{room}/documents", signedIn, api, inRoom(s.uploadDocument)},
		route{"GET /api/rooms/{room}/documents/{doc}", signedIn, api, inRoom(s.getDocument)},
		route{"DELETE /api/rooms/{room}/documents/{doc}", signedIn, api, inRoom(s.deleteDocument)},
		route{"GET /api/rooms/{room}/documents/{doc}/file", signedIn, api, inRoom(s.downloadDocument)},
		route{"GET /api/rooms/{room}/documents/{doc}/pages", signedIn, api, inRoom(s.listPages)},
		route{"GET /api/rooms/{room}/documents/{doc}/pages/{page}", signedIn, api, inRoom(s.getPage)},
		route{"GET /api/rooms/{room}/documents/{doc}/pages/{page}/image", signedIn, api, inRoom(s.pageImage)},
		route{"GET /api/rooms/{room}/documents/{doc}/pages/{page}/highlight", signedIn, api, inRoom(s.pageHighlight)},
		route{"GET /api/rooms/{room}/chunks/{chunk}", signedIn, api, inRoom(s.getChunk)},
		route{"GET /api/rooms/{room}/events", signedIn, api, inRoom(s.roomEvents)},
		route{"GET /api/rooms/{room}/access", signedIn, api, inRoom(s.accessLog)},
		route{"POST /api/rooms/{room}/ask", signedIn, api, inRoom(s.askRoom)},
		route{"GET /api/rooms/{room}/queries/{query}", signedIn, api, inRoom(s.getQuery)},
		route{"PUT /api/rooms/{room}/queries/{query}/feedback", signedIn, api, inRoom(s.putFeedback)},
		route{"GET /api/rooms/{room}/history", signedIn, api, inRoom(s.history)},
		route{"DELETE /api/rooms/{room}/history", signedIn, api, inRoom(s.deleteHistory)},
		route{"GET /api/rooms/{room}/history/export", signedIn, api, inRoom(s.exportHistory)},
		route{"DELETE /api/account", signedIn, api, user(s.deleteAccount)},

		route{"GET /rooms", signedIn, page, user(s.roomsPage)},
		route{"POST /rooms", signedIn, form, user(s.createRoomPage)},
		route{"GET /rooms/{room}", signedIn, page, inRoom(s.roomPage)},
		route{"POST /rooms/{room}/delete", signedIn, form, inRoom(s.deleteRoomPage)},
		route{"POST /rooms/{room}/members", signedIn, form, inRoom(s.addMemberPage)},
		route{"POST /rooms/{room}/members/{user}/remove", signedIn, form, inRoom(s.removeMemberPage)},
		route{"POST /rooms/{room}/documents", signedIn, form, inRoom(s.uploadDocumentPage)},
		route{"GET /rooms/{room}/documents/{doc}", signedIn, page, inRoom(s.documentRowPage)},
		route{"POST /rooms/{room}/documents/{doc}/delete", signedIn, form, inRoom(s.deleteDocumentPage)},
		route{"GET /rooms/{room}/documents/{doc}/pages/{page}", signedIn, page, inRoom(s.pageViewPage)},
		route{"POST /rooms/{room}/ask", signedIn, form, inRoom(s.askPage)},
		route{"GET /rooms/{room}/queries/{query}", signedIn, page, inRoom(s.answerPage)},
		route{"POST /rooms/{room}/queries/{query}/feedback", signedIn, form, inRoom(s.feedbackPage)},
		route{"GET /rooms/{room}/history", signedIn, page, inRoom(s.historyPagePage)},
		route{"POST /rooms/{room}/history/delete", signedIn, form, inRoom(s.deleteHistoryPage)},
		route{"POST /account/delete", signedIn, form, user(s.deleteAccountPage)},
	)

	// Research: the user starts researches and reads only their own (the
	// research service decides). The pages work without JavaScript (a
	// running research's page refreshes itself); research.js follows the
	// stages over the event stream and opens a citation's passage in
	// place.
	add(research,
		route{"POST /api/research", signedIn, api, user(s.startResearch)},
		route{"GET /api/research/{id}", signedIn, api, user(s.getResearch)},
		route{"GET /api/research/{id}/events", signedIn, api, user(s.researchEvents)},

		route{"GET /research", signedIn, page, user(s.researchListPage)},
		route{"POST /research", signedIn, form, user(s.startResearchPage)},
		route{"GET /research/{id}", signedIn, page, user(s.researchPage)},
	)

	// Sign-in and sign-out, when people sign in with passwords; in
	// single-user mode there is nothing to sign in to and /login is not
	// found.
	add(passwords,
		route{"GET /login", open, page, func(w http.ResponseWriter, r *http.Request) error { return s.loginPage(w, r, pw) }},
		route{"POST /login", open, form, func(w http.ResponseWriter, r *http.Request) error { return s.signIn(w, r, pw) }},
		route{"POST /logout", open, form, func(w http.ResponseWriter, r *http.Request) error { return s.signOutPage(w, r, pw) }},
	)

	// What is left: the embedded scripts and styles, and the answers for
	// paths that are not routes.
	add(true,
		route{"GET /static/{file}", open, page, func(w http.ResponseWriter, r *http.Request) error {
			s.serveStatic(w, r)
			return nil
		}},
		route{"/api/", open, api, s.apiFallback},
		route{"/", open, page, func(w http.ResponseWriter, r *http.Request) error {
			return quarry.Errorf(quarry.ECodeNotFound, "there is no page at %s", r.URL.Path)
		}},
	)
	return table
}

// pageCSRF refuses form posts a browser marks as coming from another
// site's page (Sec-Fetch-Site, Origin).
var pageCSRF = http.NewCrossOriginProtection()

// register puts every route of the table on the server's mux, each behind
// its access rule, and shows the layout's links to the jobs it has.
func (s *Server) register() {
	for _, rt := range s.routes() {
		h := s.guard(rt.rule, rt.h)
		switch rt.kind {
		case api:
			s.mux.Handle(rt.pattern, s.api(h))
		case page:
			s.mux.Handle(rt.pattern, s.page(h))
		case form:
			s.mux.Handle(rt.pattern, pageCSRF.Handler(s.page(h)))
		}
	}
	_, passwords := s.opt.Auth.(*PasswordAuth)
	on := template.FuncMap{
		"passwordAuth": func() bool { return passwords },
		"analysesOn":   func() bool { return s.opt.Analyses != nil },
		"roomsOn":      func() bool { return s.opt.Rooms != nil && s.opt.Auth != nil },
		"researchOn":   func() bool { return s.opt.Research != nil && s.opt.Auth != nil },
	}
	for _, t := range s.views {
		t.Funcs(on)
	}
}

// redirect is a handler that sends the browser to another page.
func redirect(to string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		http.Redirect(w, r, to, http.StatusSeeOther)
		return nil
	}
}
