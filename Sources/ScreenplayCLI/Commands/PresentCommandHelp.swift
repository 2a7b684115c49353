import Presenter

/// `screenplay present --help`: every option, the keys and examples.
extension PresentCommand {
    public static let usage = """
        OVERVIEW: \(abstract)

        USAGE: screenplay present [options] <content>

        CONTENT:
          test-card               Built-in pattern for checking geometry and timing.
          color RRGGBB            Solid color; #RRGGBB works too.
          FILE.frag, FILE.glsl    Animated GLSL ES fragment shader.
          IMAGE                   PNG, JPEG, GIF, WebP or SVG (recognised by
                                  content), fitted; animated GIF/WebP play.
          FILE.pdf                Slides, one page at a time.
          VIDEO                   A video file (.mp4, .mkv, .webm, .mov, ... or any
                                  file libmpv decodes), scaled to fit, looping.

        OUTPUTS (default: every external output):
          --output PATTERN        Use outputs whose name, description, make, model
                                  or serial matches PATTERN (repeatable; exact
                                  or glob * ? [...], case-insensitive).
          --all                   Use every output, built-in ones included.
          --builtin PATTERN       Treat outputs matching PATTERN, as --output
                                  matches, as built-in (repeatable).
          --reconnect             When the compositor dies, wait for one on the
                                  same socket and show the content again
                                  (default: exit 69). Outputs coming and going
                                  are always followed.

        RENDERING:
          --mode WxH[@HZ]         Set each external output to this mode first
                                  (wlroots compositors); the previous mode comes
                                  back on exit.
          --layer LAYER           overlay (default), top, bottom or background.
          --fps N                 Draw at most N frames per second (default: the
                                  output's refresh rate).
          --preview               Show the content in an ordinary window instead
                                  (to work without a second screen).
          --fullscreen-window     Use fullscreen windows, not layer surfaces,
                                  even where the compositor has layer shell (as
                                  on GNOME): window capture tools can record
                                  them; they may take focus.
          --stats FILE            Write JSON Lines to FILE ('-' for standard
                                  output): connect/disconnect, and once a second
                                  per scene the frames presented.
          --allow-idle            Let the desktop blank or lock the screens shown
                                  on (default: they stay on while shown).
          --stall-grace SECONDS   A draw that has not returned after this long
                                  (default 30) is a stuck renderer: say which
                                  output and content, exit 70 (EX_SOFTWARE).
                                  Under systemd's watchdog, also how long a
                                  panel that is on may show no frame before
                                  the pings stop.

        SLIDES:
          --talk-minutes MIN      Length of the talk in minutes: a countdown that
                                  turns amber 5 minutes before the end, red after.
          --end-time HH:MM        Count down to this time of day instead.
          --start-time HH:MM      The timer starts by itself at this time of day
                                  (and the console counts down to it); one
                                  that passed within 12 hours counts from it.
          --last-minutes N        Turn the countdown amber N minutes before the
                                  end (default 5).
          --notes FILE            Speaker notes (default: talk.notes.md next to
                                  talk.pdf; a section per page starts '## N').
                                  pdfpc's talk.pdfpc next to talk.pdf is read
                                  too (notes, duration, end time, last minutes,
                                  notes position); talk.notes.md wins per page.
          --notes-position SIDE   Pages are LaTeX beamer slides with notes on
                                  the right, left, top or bottom half: the
                                  audience sees the slide, the console the notes.
          --password PW           Password of an encrypted PDF.
          --rehearse              Show the audience view in a window instead
                                  (the console is then a window too).
          --windowed-console      Keep the console an ordinary window (default:
                                  full screen on the built-in or main screen).
          --no-clock              Leave the wall clock out of the console's top
                                  bar (the talk timer stays).
          --keys FILE             Key bindings in pdfpcrc's syntax, one a line:
                                  'bind KEY ACTION', 'unbind KEY' (KEY an xkb
                                  keysym after S+, C+ or A+; ACTION below or
                                  pdfpc's name). Default: presenter.conf in
                                  $XDG_CONFIG_HOME/screenplay, when there. A bad
                                  line exits 65 naming it. Actions:
        \(PresenterKeyNames.actionNamesText)

        KEYS (slides; any keymap, clickers send these):
        \(PresenterKeyNames.helpText)

        VIDEO:
          --audio                 Play the video's sound, also of videos on PDF
                                  slides (default: silent, no audio output
                                  is opened).
          --no-loop               Play once, then exit (default: loop).

          -h, --help              Show this help.

        EXAMPLES:
          screenplay present test-card
          screenplay present --output 'HDMI-*' color '#FF8800'
          screenplay present --fps 30 --stats - plasma.frag
          screenplay present --talk-minutes 20 talk.pdf
        """
}
