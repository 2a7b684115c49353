#!/usr/bin/env python3
"""screenplay-scoreboard.py: a scoreboard on the TV from Python, with
ctypes from the standard library and libscreenplay.

    python3 scoreboard.py

A small keypad window on the laptop hears the keys: h scores for home,
a for away, Escape quits. Every external screen (the TV) shows the score
and the game clock; the leading team's half turns its colour. Python runs
the loop: it polls libscreenplay's descriptor and calls
screenplay_app_dispatch, and ticks the game clock itself. SIGINT and SIGTERM
end the loop; the app is destroyed and the program exits 0.

libscreenplay is found through pkg-config (its libdir), else by the
dynamic loader's search path (libscreenplay.so.0).
"""
import ctypes
import os
import select
import signal
import subprocess
import sys
import time

BACKGROUND, HOME, AWAY, WHITE = 0x101820, 0x1E5AA8, 0xB8322A, 0xFFFFFF


def load_library():
    name = "libscreenplay.so.0"
    try:
        libdir = subprocess.run(
            ["pkg-config", "--variable=libdir", "screenplay"], capture_output=True, text=True, check=True
        ).stdout.strip()
        if libdir and os.path.exists(os.path.join(libdir, name)):
            name = os.path.join(libdir, name)
    except (OSError, subprocess.CalledProcessError):
        pass
    return ctypes.CDLL(name)


lib = load_library()
P = ctypes.c_void_p
INT = ctypes.c_int
# The callback types of screenplay.h.
SCREEN_CALLBACK = ctypes.CFUNCTYPE(None, P, P, INT, P)
SCENE_CALLBACK = ctypes.CFUNCTYPE(None, P, P)
DRAW_CALLBACK = ctypes.CFUNCTYPE(None, P, P, P)
KEY_CALLBACK = ctypes.CFUNCTYPE(None, P, ctypes.c_char_p, ctypes.c_char_p, INT, P)

lib.screenplay_last_error.restype = ctypes.c_char_p
lib.screenplay_result_name.restype = ctypes.c_char_p
lib.screenplay_app_create.argtypes = [P, ctypes.POINTER(P)]
lib.screenplay_app_destroy.argtypes = [P]
lib.screenplay_app_fd.argtypes = [P, ctypes.POINTER(INT)]
lib.screenplay_app_dispatch.argtypes = [P]
lib.screenplay_app_timeout.argtypes = [P, INT, ctypes.POINTER(INT)]
lib.screenplay_app_set_screen_callback.argtypes = [P, SCREEN_CALLBACK, P]
lib.screenplay_screen_name.argtypes = [P, ctypes.POINTER(ctypes.c_char_p)]
lib.screenplay_register_content.argtypes = [
    P, ctypes.c_char_p, SCENE_CALLBACK, DRAW_CALLBACK, SCENE_CALLBACK, P, ctypes.POINTER(P)]
lib.screenplay_open_window.argtypes = [
    P, ctypes.c_char_p, SCENE_CALLBACK, DRAW_CALLBACK, KEY_CALLBACK, SCENE_CALLBACK, P, ctypes.POINTER(P)]
lib.screenplay_scene_screen.argtypes = [P, ctypes.POINTER(P)]
lib.screenplay_scene_set_needs_display.argtypes = [P]
lib.screenplay_draw_size.argtypes = [P, ctypes.POINTER(INT), ctypes.POINTER(INT)]
lib.screenplay_draw_clear.argtypes = [P, ctypes.c_uint32]
lib.screenplay_draw_fill.argtypes = [P, INT, INT, INT, INT, ctypes.c_uint32]
lib.screenplay_draw_text.argtypes = [
    P, ctypes.c_char_p, INT, INT, INT, INT, ctypes.c_uint32, INT, ctypes.c_char_p, ctypes.POINTER(INT)]
ALIGN_CENTER = 1
SCREEN_EVENTS = {0: "connected", 1: "changed", 2: "disconnected"}


def say(message):
    print(f"screenplay-scoreboard.py: {message}", file=sys.stderr, flush=True)


def check(result, what):
    if result != 0:
        say(f"error: {what}: {lib.screenplay_last_error().decode()}")
        sys.exit(1)


def screen_name(screen):
    name = ctypes.c_char_p()
    if not screen or lib.screenplay_screen_name(screen, ctypes.byref(name)) != 0:
        return "?"
    return name.value.decode()


class Scoreboard:
    def __init__(self):
        self.home = self.away = 0
        self.started = time.monotonic()
        self.shown_seconds = -1
        self.scenes = []
        self.running = True

    def changed(self):
        for scene in self.scenes:
            lib.screenplay_scene_set_needs_display(scene)

    def key(self, _window, keysym, _text, pressed, _user):
        if not pressed:
            return
        name = keysym.decode()
        if name == "h":
            self.home += 1
        elif name == "a":
            self.away += 1
        elif name == "Escape":
            self.running = False
            return
        else:
            return
        print(f"score {self.home} {self.away}", flush=True)
        self.changed()

    def draw_tv(self, _scene, draw, _user):
        w, h = INT(), INT()
        check(lib.screenplay_draw_size(draw, ctypes.byref(w), ctypes.byref(h)), "screenplay_draw_size")
        w, h = w.value, h.value
        check(lib.screenplay_draw_clear(draw, BACKGROUND), "screenplay_draw_clear")
        if self.home != self.away:
            leader = HOME if self.home > self.away else AWAY
            x = 0 if self.home > self.away else w // 2
            check(lib.screenplay_draw_fill(draw, x, 0, w - w // 2, h, leader), "screenplay_draw_fill")
        text = f"{self.home} : {self.away}".encode()
        check(lib.screenplay_draw_text(draw, text, 0, h // 4, w, h // 4, WHITE, ALIGN_CENTER, None, None), "text")
        seconds = int(time.monotonic() - self.started)
        clock = f"{seconds // 60:02d}:{seconds % 60:02d}".encode()
        check(lib.screenplay_draw_text(draw, clock, 0, h * 2 // 3, w, h // 8, WHITE, ALIGN_CENTER, None, None), "clock")

    def draw_keypad(self, _scene, draw, _user):
        w, h = INT(), INT()
        lib.screenplay_draw_size(draw, ctypes.byref(w), ctypes.byref(h))
        check(lib.screenplay_draw_clear(draw, 0x303030), "screenplay_draw_clear")
        lib.screenplay_draw_text(draw, b"h: home   a: away", 0, h.value // 3, w.value, h.value // 6, WHITE,
                                 ALIGN_CENTER, None, None)

    def connect(self, scene, _user):
        screen = P()
        lib.screenplay_scene_screen(scene, ctypes.byref(screen))
        say(f"showing the score on {screen_name(screen.value)}")
        self.scenes.append(scene)
        lib.screenplay_scene_set_needs_display(scene)

    def disconnect(self, scene, _user):
        self.scenes = [s for s in self.scenes if s != scene]
        say("a TV went away")

    def screen(self, _app, screen, event, _user):
        say(f"screen {screen_name(screen)} {SCREEN_EVENTS.get(event, event)}")

    def tick(self):
        """The game clock, from Python's own loop: a frame when its second changes."""
        seconds = int(time.monotonic() - self.started)
        if seconds != self.shown_seconds:
            self.shown_seconds = seconds
            self.changed()


def main():
    board = Scoreboard()
    # ctypes keeps no reference to a callback object: these do, for as long as the app lives.
    callbacks = [
        SCREEN_CALLBACK(board.screen), SCENE_CALLBACK(board.connect), DRAW_CALLBACK(board.draw_tv),
        SCENE_CALLBACK(board.disconnect), KEY_CALLBACK(board.key), DRAW_CALLBACK(board.draw_keypad),
        SCENE_CALLBACK(lambda scene, user: None),
    ]
    app = P()
    check(lib.screenplay_app_create(None, ctypes.byref(app)), "screenplay_app_create")
    check(lib.screenplay_app_set_screen_callback(app, callbacks[0], None), "the screen callback")
    registration, window = P(), P()
    check(lib.screenplay_register_content(app, b"scoreboard", callbacks[1], callbacks[2], callbacks[3], None,
                                          ctypes.byref(registration)), "screenplay_register_content")
    check(lib.screenplay_open_window(app, b"Scoreboard keypad", callbacks[6], callbacks[5], callbacks[4],
                                     callbacks[6], None, ctypes.byref(window)), "screenplay_open_window")

    def stop(signum, _frame):
        say(f"{signal.Signals(signum).name}: stopping")
        board.running = False

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    fd, timeout = INT(), INT()
    check(lib.screenplay_app_fd(app, ctypes.byref(fd)), "screenplay_app_fd")
    poller = select.poll()
    poller.register(fd.value, select.POLLIN)
    while board.running:
        board.tick()
        # At most 200 ms, so a signal's flag is seen soon.
        check(lib.screenplay_app_timeout(app, 200, ctypes.byref(timeout)), "screenplay_app_timeout")
        poller.poll(timeout.value)
        check(lib.screenplay_app_dispatch(app), "screenplay_app_dispatch")
    check(lib.screenplay_app_destroy(app), "screenplay_app_destroy")
    say("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
