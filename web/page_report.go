package web

import (
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// reportPage is the page of a session from the start of its investigation:
// progress while it runs, the report when it has completed, the error when
// it failed; and the chat beside it.
type reportPage struct {
	pageBase
	Session  *investigation.Investigation
	Running  bool
	Failed   bool
	Question *investigation.Context
	// Heading is the page's h1: the report's title once there is one.
	Heading   string
	Report    template.HTML
	ReportErr *quarry.Error
	Download  string
	Progress  progressView
	// Log is the memory loop's iterations, under a completed report.
	Log     []progressItem
	Failure *quarry.ErrorInfo
	Chat    chatView
}

// progressView is the list of what the investigation did so far.
type progressView struct {
	Items []progressItem
	// Seen is how many of the stream's events the list already shows;
	// progress.js skips those when the stream replays them.
	Seen int
	// Fallback marks a list drawn from the iteration logs rather than the
	// event stream, which progress.js replaces on the first event.
	Fallback  bool
	EventsURL string
}

type progressItem struct {
	Step      string
	Message   string
	Iteration int
	Decision  string
	Finding   string
}

// chatView is the chat panel.
type chatView struct {
	Action   string
	Enabled  bool
	Messages []chatMessageView
	Form     chatForm
}

// chatForm is the chat's form; it is swapped whole after each message.
type chatForm struct {
	Action  string
	Enabled bool
	Message string
	Err     *fieldError
	Max     int
	OOB     bool
}

type chatMessageView struct {
	Role      string
	Who       string
	HTML      template.HTML
	Time      time.Time
	Artifacts []artifactRef
}

type artifactRef struct {
	Ref  string
	Href string
}

func (s *Server) renderReport(w http.ResponseWriter, r *http.Request, sess *investigation.Investigation, status int, st *pageState) error {
	ctx := r.Context()
	id := sess.SessionID
	p := reportPage{
		pageBase: pageBase{Errors: summaryOnly(st)},
		Session:  sess,
		Running:  sess.Status == investigation.StatusRunning,
		Failed:   sess.Status == investigation.StatusFailed,
		Failure:  sess.Error,
		Download: "/api/sessions/" + id + "/report/download",
	}
	if c, err := s.svc.Context(ctx, id); err == nil {
		p.Question = c
	}
	switch sess.Status {
	case investigation.StatusRunning:
		p.Heading = "Investigation in progress"
		p.Refresh = true
		p.Scripts = []string{"progress.js"}
	case investigation.StatusFailed:
		p.Heading = "Investigation failed"
		if p.Failure == nil {
			p.Failure = &quarry.ErrorInfo{Code: quarry.ECodeInternal, Message: "the investigation stopped without saying why"}
		}
	default:
		p.Heading = "Investigation report"
		p.Scripts = []string{"chat.js"}
		if err := s.fillReport(r, &p); err != nil {
			p.ReportErr = s.asQuarryError(r, err)
		}
		iters, err := s.svc.Iterations(ctx, id)
		if err != nil {
			return err
		}
		for _, it := range iters {
			p.Log = append(p.Log, iterationItem(it))
		}
	}
	p.Title = p.Heading
	if sess.Status != investigation.StatusCompleted {
		prog, err := s.progress(r, id)
		if err != nil {
			return err
		}
		p.Progress = prog
	}

	hist, err := s.svc.History(ctx, id)
	if err != nil {
		return err
	}
	p.Chat = chatView{Action: sessionURL(id) + "/chat", Enabled: sess.Status == investigation.StatusCompleted}
	for _, m := range hist {
		p.Chat.Messages = append(p.Chat.Messages, chatMessage(id, m))
	}
	p.Chat.Form = chatForm{Action: p.Chat.Action, Enabled: p.Chat.Enabled, Message: st.chat,
		Err: newFieldError("chat-error", st.at(slotChat)), Max: quarry.MaxChatMessageLen}
	s.render(w, r, status, "report", p)
	return nil
}

// summaryOnly is the summary of a report page: the chat's error is shown
// at the chat form only.
func summaryOnly(st *pageState) []summaryItem {
	var out []summaryItem
	for _, e := range st.errs {
		if e.slot == slotChat {
			continue
		}
		out = append(out, summaryItem{Message: e.err.Message, Hint: e.err.Hint})
	}
	return out
}

// fillReport renders the report with the data model diagram in it.
func (s *Server) fillReport(r *http.Request, p *reportPage) error {
	id := p.Session.SessionID
	rep, err := s.svc.Report(r.Context(), id)
	if err != nil {
		return err
	}
	opt := markdownOptions{SessionID: id, TopLevel: 2, Title: true}
	dm, err := s.svc.DataModel(r.Context(), id)
	if err != nil {
		return err
	}
	if v := newDataModelView(dm); v != nil {
		var b strings.Builder
		if err := s.views["report"].ExecuteTemplate(&b, "data_model", v); err != nil {
			return err
		}
		opt.DataModel = template.HTML(b.String()) // html/template output
	}
	out, err := renderMarkdown(reportMarkdown, rep.Content, opt)
	if err != nil {
		return err
	}
	if out.Title != "" {
		p.Heading = out.Title
	}
	p.Report = out.HTML
	return nil
}

// progress is what the investigation has reported so far: the events of
// the stream, or, when the stream has none (the server restarted), the
// iteration logs.
func (s *Server) progress(r *http.Request, id string) (progressView, error) {
	v := progressView{EventsURL: "/api/sessions/" + id + "/events"}
	past, _, cancel, err := s.svc.Subscribe(r.Context(), id)
	if err != nil {
		return v, err
	}
	cancel()
	for _, e := range past {
		v.Items = append(v.Items, progressOf(e))
	}
	v.Seen = len(past)
	if len(past) > 0 {
		return v, nil
	}
	iters, err := s.svc.Iterations(r.Context(), id)
	if err != nil {
		return v, err
	}
	for _, it := range iters {
		v.Items = append(v.Items, iterationItem(it))
	}
	v.Fallback = len(iters) > 0
	return v, nil
}

func iterationItem(it investigation.IterationLog) progressItem {
	return progressItem{Step: "loop", Iteration: it.Iteration, Decision: it.Decision, Finding: it.CompressedSummary}
}

func progressOf(e investigation.Event) progressItem {
	return progressItem{Step: e.Step, Message: e.Message, Iteration: e.Iteration, Decision: e.Decision, Finding: e.Finding}
}

// chatMessage prepares a stored message for the panel: Markdown rendered
// with its headings under the panel's, artifacts as links.
func chatMessage(sessionID string, m investigation.ChatMessage) chatMessageView {
	v := chatMessageView{Role: string(m.Role), Who: "You", Time: m.Timestamp}
	if m.Role == investigation.ChatAssistant {
		v.Who = "Quarry"
	}
	// What the user typed is shown as typed; the answers are Markdown whose
	// "[ref]" citations become numbered links to the sources listed below.
	v.HTML = template.HTML(`<p class="typed">` + template.HTMLEscapeString(m.Content) + "</p>")
	if m.Role != investigation.ChatAssistant {
		return v
	}
	content := m.Content
	for _, ref := range m.ArtifactsReferenced {
		rel, _, _ := strings.Cut(ref, "#")
		if !allowedArtifact(rel) {
			continue
		}
		a := artifactRef{Ref: ref, Href: sessionURL(sessionID) + "/artifacts/" + rel}
		v.Artifacts = append(v.Artifacts, a)
		content = strings.ReplaceAll(content, "["+ref+"]", fmt.Sprintf(`[\[%d\]](%s "%s")`, len(v.Artifacts), a.Href, ref))
	}
	if out, err := renderMarkdown(chatMarkdown, content, markdownOptions{SessionID: sessionID, TopLevel: 3}); err == nil {
		v.HTML = out.HTML
	}
	return v
}

// chatPage sends a question to the chat. Without JavaScript it redirects
// back to the messages; with htmx it answers the question and the reply as
// two messages, and a fresh form out of band.
func (s *Server) chatPage(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if err := parseForm(w, r); err != nil {
		return err
	}
	msg := r.PostForm.Get("message")
	reply, err := s.svc.Chat(r.Context(), id, msg)
	if err != nil {
		qe := s.asQuarryError(r, err)
		if !isHTMX(r) {
			return s.failForm(w, r, qe, &pageState{chat: msg}, slotChat)
		}
		if qe.Code == quarry.ECodeSessionNotFound || qe.Code == quarry.ECodeSessionExpired {
			return qe
		}
		w.Header().Set("HX-Retarget", "#chat-form")
		w.Header().Set("HX-Reswap", "outerHTML")
		s.renderFragment(w, r, pageStatus(qe), fragment{"chat_form", chatForm{Action: sessionURL(id) + "/chat", Enabled: true,
			Message: msg, Err: newFieldError("chat-error", qe), Max: quarry.MaxChatMessageLen}})
		return nil
	}
	if !isHTMX(r) {
		seeOther(w, r, sessionURL(id)+"#chat-messages")
		return nil
	}
	question := investigation.ChatMessage{Role: investigation.ChatUser, Content: strings.TrimSpace(msg), Timestamp: reply.Timestamp}
	s.renderFragment(w, r, http.StatusOK,
		fragment{"chat_message", chatMessage(id, question)},
		fragment{"chat_message", chatMessage(id, *reply)},
		fragment{"chat_form", chatForm{Action: sessionURL(id) + "/chat", Enabled: true, Max: quarry.MaxChatMessageLen, OOB: true}})
	return nil
}
