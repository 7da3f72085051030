package codeexec

import (
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// Defaults applied by Dial and Connect to zero Config fields.
const (
	DefaultTool       = "execute_python"
	DefaultCodeArg    = "code"
	DefaultUploadTool = "upload_file"
	DefaultTimeout    = 60 * time.Second
	DefaultMaxOutput  = 64 << 10 // bytes kept of each of stdout and stderr
	DefaultMaxUpload  = 50 << 20 // bytes
)

// Environment variables read by ConfigFromEnv.
const (
	EnvCommand = "QUARRY_CODE_MCP_COMMAND"
	EnvURL     = "QUARRY_CODE_MCP_URL"
	EnvTool    = "QUARRY_CODE_MCP_TOOL"
	EnvCodeArg = "QUARRY_CODE_MCP_CODE_ARG"
)

// Config says which code-execution server to use and how to call it. Exactly
// one of Command and URL is set; the other fields have defaults.
type Config struct {
	// Command starts a server that speaks MCP over stdin/stdout. Command[0]
	// is the program, the rest its arguments.
	Command []string
	// URL is the endpoint of a server that speaks MCP over streamable HTTP.
	URL string
	// Tool is the tool that runs Python (DefaultTool).
	Tool string
	// CodeArg is the name of Tool's argument that holds the code
	// (DefaultCodeArg).
	CodeArg string
	// UploadTool is the tool that receives files (DefaultUploadTool). It is
	// used only if the server lists it; see Runner.Upload.
	UploadTool string
	// Timeout bounds connecting and each tool call (DefaultTimeout).
	Timeout time.Duration
	// MaxOutput is how many bytes of each of stdout and stderr Run keeps
	// (DefaultMaxOutput).
	MaxOutput int
	// MaxUpload is the largest file Upload sends (DefaultMaxUpload).
	MaxUpload int64
}

// ConfigFromEnv reads the configuration from the environment and reports
// whether a server is configured at all (QUARRY_CODE_MCP_COMMAND or
// QUARRY_CODE_MCP_URL is set). QUARRY_CODE_MCP_TOOL and
// QUARRY_CODE_MCP_CODE_ARG override Tool and CodeArg.
//
// QUARRY_CODE_MCP_COMMAND is split on white space with no quoting or
// escaping, so no argument may contain a space or a quote character; wrap
// such a command in a script. Setting both variables yields a Config that
// Validate rejects.
func ConfigFromEnv(getenv func(string) string) (Config, bool) {
	c := Config{
		Command: strings.Fields(getenv(EnvCommand)),
		URL:     strings.TrimSpace(getenv(EnvURL)),
		Tool:    strings.TrimSpace(getenv(EnvTool)),
		CodeArg: strings.TrimSpace(getenv(EnvCodeArg)),
	}
	if len(c.Command) == 0 {
		c.Command = nil
	}
	return c.withDefaults(), c.Command != nil || c.URL != ""
}

// Validate reports an INVALID error naming the setting that is wrong.
func (c Config) Validate() error {
	hint := "set " + EnvCommand + " to a command that serves MCP over stdio, or " + EnvURL + " to a streamable HTTP endpoint"
	switch {
	case len(c.Command) > 0 && c.URL != "":
		return quarry.Errorf(quarry.ECodeInvalid, "code execution server: both %s and %s are set", EnvCommand, EnvURL).WithHint("set only one of them")
	case len(c.Command) == 0 && c.URL == "":
		return quarry.Errorf(quarry.ECodeInvalid, "code execution server: no command or URL configured").WithHint(hint)
	case c.URL != "" && !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://"):
		return quarry.Errorf(quarry.ECodeInvalid, "code execution server: %s %q is not an http or https URL", EnvURL, c.URL)
	case c.Timeout < 0:
		return quarry.Errorf(quarry.ECodeInvalid, "code execution server: negative timeout %v", c.Timeout)
	}
	return nil
}

// withDefaults returns c with its zero fields set to the defaults.
func (c Config) withDefaults() Config {
	if c.Tool == "" {
		c.Tool = DefaultTool
	}
	if c.CodeArg == "" {
		c.CodeArg = DefaultCodeArg
	}
	if c.UploadTool == "" {
		c.UploadTool = DefaultUploadTool
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxOutput <= 0 {
		c.MaxOutput = DefaultMaxOutput
	}
	if c.MaxUpload <= 0 {
		c.MaxUpload = DefaultMaxUpload
	}
	return c
}
