/*
 * screenplay-pinball: a pinball cabinet in C with SDL2 and libscreenplay.
 *
 *     cc pinball.c -o pinball $(pkg-config --cflags --libs screenplay sdl2 glesv2)
 *     ./pinball [backglass.svg]
 *
 * The SDL window on the laptop is the playfield: Left and Right (or the
 * Shift keys) lift the flippers, each lift scores, Escape quits. Every
 * external screen is the backglass: a picture (backglass.svg beside the
 * program, or the path given) and a dot-matrix score drawn with raw OpenGL
 * ES inside libscreenplay's draw callback. SDL runs the loop; the loop
 * polls libscreenplay's descriptor and calls screenplay_app_dispatch.
 * SIGINT and SIGTERM reach the loop as SDL_QUIT: the program tears down
 * and exits 0.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, poll */
#include <GLES2/gl2.h>
#include <SDL.h>
#include <poll.h>
#include <screenplay/screenplay.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The dot-matrix display: 128 x 32 dots, lit dots amber. */
#define DMD_COLUMNS 128
#define DMD_ROWS 32

struct cabinet {
    screenplay_app *app;
    screenplay_picture *backglass;
    long score;
    int flipper_up[2];
    /* The backglass scenes now, to ask each for a frame when the score changes. */
    screenplay_scene *scenes[8];
    int scene_count;
};

/* Digits 0-9 in a 5x7 font, one byte per row, bit 4 the leftmost dot. */
static const unsigned char digits[10][7] = {
    {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}, {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e},
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}, {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e},
    {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}, {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e},
    {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}, {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
    {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}, {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c},
};

static void say(const char *message) { fprintf(stderr, "screenplay-pinball: %s\n", message); }

static void check(screenplay_result result, const char *what) {
    if (result == SCREENPLAY_OK) return;
    fprintf(stderr, "screenplay-pinball: error: %s: %s\n", what, screenplay_last_error());
    exit(1);
}

/* Whether the DMD dot (column, row) is lit: the score in digits twice the
 * font's size, right-aligned, vertically centred. */
static int dot_lit(long score, int column, int row) {
    char text[16];
    int length = snprintf(text, sizeof text, "%ld", score);
    int width = length * 12 - 2; /* each digit 10 dots wide, 2 between */
    int left = DMD_COLUMNS - 4 - width, top = (DMD_ROWS - 14) / 2;
    int x = column - left, y = row - top;
    if (x < 0 || y < 0 || x >= width || y >= 14 || x % 12 >= 10) return 0;
    int digit = text[x / 12] - '0';
    return (digits[digit][y / 2] >> (4 - (x % 12) / 2)) & 1;
}

/* The DMD with raw GL: a dark panel, then one scissored clear per lit dot
 * (GL's origin is the bottom left). */
static void draw_dmd(long score, int width, int height) {
    int pitch = width * 4 / 5 / DMD_COLUMNS;
    if (pitch < 1) pitch = 1;
    int panel_w = pitch * DMD_COLUMNS, panel_h = pitch * DMD_ROWS;
    int x0 = (width - panel_w) / 2, y0 = height / 12; /* bottom of the panel, from the bottom */
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0 - pitch, y0 - pitch, panel_w + 2 * pitch, panel_h + 2 * pitch);
    glClearColor(0.06f, 0.03f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glClearColor(1.0f, 0x8c / 255.0f, 0.0f, 1.0f);
    int dot = pitch > 2 ? pitch - 1 : pitch;
    for (int row = 0; row < DMD_ROWS; row++) {
        for (int column = 0; column < DMD_COLUMNS; column++) {
            if (!dot_lit(score, column, row)) continue;
            glScissor(x0 + column * pitch, y0 + (DMD_ROWS - 1 - row) * pitch, dot, dot);
            glClear(GL_COLOR_BUFFER_BIT);
        }
    }
    glDisable(GL_SCISSOR_TEST);
}

static void backglass_draw(screenplay_scene *scene, screenplay_draw *draw, void *user) {
    struct cabinet *cabinet = user;
    int width, height;
    (void)scene;
    check(screenplay_draw_size(draw, &width, &height), "screenplay_draw_size");
    /* The helpers first: they may change GL state; raw GL after them. */
    if (cabinet->backglass)
        check(screenplay_draw_picture_fitted(draw, cabinet->backglass, 0x180830), "the backglass picture");
    else
        check(screenplay_draw_clear(draw, 0x180830), "screenplay_draw_clear");
    draw_dmd(cabinet->score, width, height);
}

static void backglass_connect(screenplay_scene *scene, void *user) {
    struct cabinet *cabinet = user;
    screenplay_screen *screen = NULL;
    const char *name = "?";
    int width = 0, height = 0;
    if (screenplay_scene_screen(scene, &screen) == SCREENPLAY_OK && screen) screenplay_screen_name(screen, &name);
    screenplay_scene_size(scene, &width, &height);
    fprintf(stderr, "screenplay-pinball: backglass on %s %dx%d\n", name, width, height);
    if (cabinet->scene_count < (int)(sizeof cabinet->scenes / sizeof cabinet->scenes[0]))
        cabinet->scenes[cabinet->scene_count++] = scene;
    /* The display link stays paused: the backglass draws when the score changes. */
    screenplay_scene_set_needs_display(scene);
}

static void backglass_disconnect(screenplay_scene *scene, void *user) {
    struct cabinet *cabinet = user;
    for (int i = 0; i < cabinet->scene_count; i++) {
        if (cabinet->scenes[i] != scene) continue;
        cabinet->scenes[i] = cabinet->scenes[--cabinet->scene_count];
        break;
    }
    say("backglass off a screen");
}

static void screen_event(screenplay_app *app, screenplay_screen *screen, int event, void *user) {
    const char *name = "?";
    int kind = -1;
    (void)app;
    (void)user;
    screenplay_screen_name(screen, &name);
    screenplay_screen_classification(screen, &kind, NULL);
    fprintf(stderr, "screenplay-pinball: screen %s %s (%s)\n", name,
            event == SCREENPLAY_SCREEN_CONNECTED   ? "connected"
            : event == SCREENPLAY_SCREEN_CHANGED   ? "changed"
                                                   : "disconnected",
            kind == SCREENPLAY_SCREEN_EXTERNAL ? "external" : kind == SCREENPLAY_SCREEN_BUILT_IN ? "built-in" : "main");
}

static void flip(struct cabinet *cabinet, int side, int up) {
    if (cabinet->flipper_up[side] == up) return;
    cabinet->flipper_up[side] = up;
    if (!up) return;
    cabinet->score += side == 0 ? 100 : 1000;
    printf("score %ld\n", cabinet->score);
    fflush(stdout);
    for (int i = 0; i < cabinet->scene_count; i++) screenplay_scene_set_needs_display(cabinet->scenes[i]);
}

/* The playfield: the table, the ball, and a flipper on each side. */
static void draw_playfield(SDL_Renderer *renderer, const struct cabinet *cabinet, float ball_x, float ball_y) {
    int w, h;
    SDL_GetRendererOutputSize(renderer, &w, &h);
    SDL_SetRenderDrawColor(renderer, 0x10, 0x30, 0x20, 0xff);
    SDL_RenderClear(renderer);
    SDL_SetRenderDrawColor(renderer, 0xd0, 0xd0, 0xe0, 0xff);
    SDL_Rect ball = {(int)(ball_x * w) - 8, (int)(ball_y * h) - 8, 16, 16};
    SDL_RenderFillRect(renderer, &ball);
    for (int side = 0; side < 2; side++) {
        int length = w / 4, pivot_x = side == 0 ? w / 4 : w * 3 / 4, pivot_y = h * 7 / 8;
        int tip_x = side == 0 ? pivot_x + length : pivot_x - length;
        int tip_y = cabinet->flipper_up[side] ? pivot_y - h / 10 : pivot_y + h / 20;
        SDL_SetRenderDrawColor(renderer, 0xe0, 0x60, 0x20, 0xff);
        for (int t = -5; t <= 5; t++) SDL_RenderDrawLine(renderer, pivot_x, pivot_y + t, tip_x, tip_y + t);
    }
    SDL_RenderPresent(renderer);
}

int main(int argc, char **argv) {
    struct cabinet cabinet;
    memset(&cabinet, 0, sizeof cabinet);
    if (getenv("SDL_VIDEODRIVER") == NULL && getenv("WAYLAND_DISPLAY") != NULL) setenv("SDL_VIDEODRIVER", "wayland", 1);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "screenplay-pinball: error: SDL_Init: %s; run inside a Wayland session\n", SDL_GetError());
        return 1;
    }
    SDL_Window *window = SDL_CreateWindow("Screenplay pinball", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 480,
                                          720, SDL_WINDOW_RESIZABLE);
    SDL_Renderer *renderer = window ? SDL_CreateRenderer(window, -1, 0) : NULL;
    if (!renderer) {
        fprintf(stderr, "screenplay-pinball: error: SDL window: %s\n", SDL_GetError());
        return 1;
    }

    check(screenplay_app_create(NULL, &cabinet.app), "screenplay_app_create");
    check(screenplay_app_set_screen_callback(cabinet.app, screen_event, &cabinet), "the screen callback");
    /* The screens there at the start are listed, not reported as connected. */
    int count;
    check(screenplay_app_screen_count(cabinet.app, &count), "screenplay_app_screen_count");
    for (int i = 0; i < count; i++) {
        screenplay_screen *screen;
        const char *name;
        int width, height, millihertz;
        check(screenplay_app_screen(cabinet.app, i, &screen), "screenplay_app_screen");
        screenplay_screen_name(screen, &name);
        screenplay_screen_size(screen, &width, &height);
        screenplay_screen_refresh(screen, &millihertz);
        fprintf(stderr, "screenplay-pinball: screen %s there, %dx%d at %d mHz\n", name, width, height, millihertz);
    }
    char path[4096];
    if (argc > 1) {
        snprintf(path, sizeof path, "%s", argv[1]);
    } else {
        /* backglass.svg beside the program. */
        snprintf(path, sizeof path, "%s", argv[0]);
        char *slash = strrchr(path, '/');
        snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0), "backglass.svg");
    }
    if (screenplay_picture_load(cabinet.app, path, &cabinet.backglass) != SCREENPLAY_OK) {
        fprintf(stderr, "screenplay-pinball: no backglass picture, plain colour instead: %s\n", screenplay_last_error());
        cabinet.backglass = NULL;
    }
    screenplay_registration *registration;
    check(screenplay_register_content(cabinet.app, "backglass", backglass_connect, backglass_draw,
                                      backglass_disconnect, &cabinet, &registration),
          "screenplay_register_content");

    int fd;
    check(screenplay_app_fd(cabinet.app, &fd), "screenplay_app_fd");
    float ball_x = 0.5f, ball_y = 0.2f, speed_x = 0.004f, speed_y = 0.006f;
    int running = 1;
    while (running) {
        SDL_Event event;
        while (SDL_PollEvent(&event)) {
            if (event.type == SDL_QUIT) running = 0;
            if (event.type != SDL_KEYDOWN && event.type != SDL_KEYUP) continue;
            int up = event.type == SDL_KEYDOWN;
            switch (event.key.keysym.sym) {
            case SDLK_LEFT:
            case SDLK_LSHIFT: flip(&cabinet, 0, up); break;
            case SDLK_RIGHT:
            case SDLK_RSHIFT: flip(&cabinet, 1, up); break;
            case SDLK_ESCAPE: running = 0; break;
            default: break;
            }
        }
        ball_x += speed_x;
        ball_y += speed_y;
        if (ball_x < 0.05f || ball_x > 0.95f) speed_x = -speed_x;
        if (ball_y < 0.05f || ball_y > 0.8f) speed_y = -speed_y;
        draw_playfield(renderer, &cabinet, ball_x, ball_y);

        /* Wait for libscreenplay's work or the next 60 Hz tick of the playfield. */
        int timeout;
        check(screenplay_app_timeout(cabinet.app, 16, &timeout), "screenplay_app_timeout");
        struct pollfd descriptor = {fd, POLLIN, 0};
        poll(&descriptor, 1, timeout);
        check(screenplay_app_dispatch(cabinet.app), "screenplay_app_dispatch");
    }
    if (cabinet.backglass) screenplay_picture_destroy(cabinet.backglass);
    check(screenplay_app_destroy(cabinet.app), "screenplay_app_destroy");
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(window);
    SDL_Quit();
    say("stopped");
    return 0;
}
