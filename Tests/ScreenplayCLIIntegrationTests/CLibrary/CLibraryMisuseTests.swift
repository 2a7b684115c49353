import Foundation
import TestHarness
import TestSupport
import XCTest

/// libscreenplay against a real sway, called wrongly on purpose by a C
/// program: NULL, a stray value, a handle of another kind, a released
/// handle, a draw handle after its draw, another thread, a call that is
/// not allowed in a callback, bad UTF-8, values out of range. Each returns
/// its code with a message naming the function, and nothing crashes. Mode
/// and power requests are answered through their callbacks.
final class CLibraryMisuseTests: ScreenplayTestCase {
    static let program = #"""
        #define _POSIX_C_SOURCE 200809L
        #include <poll.h>
        #include <pthread.h>
        #include <screenplay/screenplay.h>
        #include <stdio.h>
        #include <string.h>

        static void expect(const char *name, int result, int expected) {
            printf("%s %s %s|%s\n", name, result == expected ? "ok" : "WRONG", screenplay_result_name(result),
                   result == SCREENPLAY_OK ? "" : screenplay_last_error());
        }

        static screenplay_app *app;
        static screenplay_draw *kept_draw;
        static screenplay_scene *kept_scene;
        static int drawn, in_callback_destroy = 1, in_callback_dispatch = 1, answers;

        static void on_connect(screenplay_scene *scene, void *user) {
            (void)user;
            kept_scene = scene;
            in_callback_destroy = screenplay_app_destroy(app);
            in_callback_dispatch = screenplay_app_dispatch(app);
        }
        static void on_draw(screenplay_scene *scene, screenplay_draw *draw, void *user) {
            (void)scene; (void)user;
            kept_draw = draw;
            screenplay_draw_clear(draw, 0x204060);
            drawn++;
        }
        static void on_mode(screenplay_screen *s, int result, const screenplay_mode *mode, const char *message, void *u) {
            (void)s; (void)u;
            printf("mode-answer %s %dx%d %s\n", screenplay_result_name(result), mode ? mode->width : 0,
                   mode ? mode->height : 0, message ? message : "");
            answers++;
        }
        static void on_power(screenplay_screen *s, int result, int power, const char *message, void *u) {
            (void)s; (void)u;
            printf("power-answer %s %d %s\n", screenplay_result_name(result), power, message ? message : "");
            answers++;
        }
        static void *other_thread(void *unused) {
            (void)unused;
            int result = screenplay_app_dispatch(app);
            printf("other-thread %s %s|%s\n", result == SCREENPLAY_ERROR_WRONG_THREAD ? "ok" : "WRONG",
                   screenplay_result_name(result), screenplay_last_error());
            return NULL;
        }
        static void pump(int *until, int count) {
            int fd, timeout;
            screenplay_app_fd(app, &fd);
            for (int i = 0; i < 500 && *until < count; i++) {
                struct pollfd p = {fd, POLLIN, 0};
                screenplay_app_timeout(app, 10, &timeout);
                poll(&p, 1, timeout);
                screenplay_app_dispatch(app);
            }
        }

        int main(void) {
            screenplay_app_options options;
            screenplay_screen *screen = NULL, *tv = NULL;
            screenplay_registration *content;
            screenplay_picture *picture;
            const char *name;
            int fd, count, kind;
            expect("create-null", screenplay_app_create(NULL, NULL), SCREENPLAY_ERROR_NULL_ARGUMENT);
            memset(&options, 0, sizeof options);
            expect("options-unsized", screenplay_app_create(&options, &app), SCREENPLAY_ERROR_INVALID_ARGUMENT);
            screenplay_app_options_init(&options);
            options.targets = 99;
            expect("options-targets", screenplay_app_create(&options, &app), SCREENPLAY_ERROR_INVALID_ARGUMENT);
            expect("create", screenplay_app_create(NULL, &app), SCREENPLAY_OK);
            screenplay_app *second;
            expect("create-second", screenplay_app_create(NULL, &second), SCREENPLAY_ERROR_INVALID_ARGUMENT);
            expect("fd-null", screenplay_app_fd(app, NULL), SCREENPLAY_ERROR_NULL_ARGUMENT);
            expect("stray", screenplay_app_fd((screenplay_app *)(size_t)0x1234, &fd), SCREENPLAY_ERROR_INVALID_HANDLE);
            expect("wrong-kind", screenplay_screen_name((screenplay_screen *)app, &name), SCREENPLAY_ERROR_INVALID_HANDLE);
            expect("count", screenplay_app_screen_count(app, &count), SCREENPLAY_OK);
            expect("index", screenplay_app_screen(app, count, &screen), SCREENPLAY_ERROR_INVALID_ARGUMENT);
            for (int i = 0; i < count; i++) {
                screenplay_app_screen(app, i, &screen);
                screenplay_screen_classification(screen, &kind, NULL);
                if (kind == SCREENPLAY_SCREEN_EXTERNAL) tv = screen;
            }
            pthread_t thread;
            pthread_create(&thread, NULL, other_thread, NULL);
            pthread_join(thread, NULL);
            expect("utf8", screenplay_register_content(app, "\xff\xfe", NULL, on_draw, NULL, NULL, &content),
                   SCREENPLAY_ERROR_INVALID_ARGUMENT);
            expect("register", screenplay_register_content(app, "misuse", on_connect, on_draw, NULL, NULL, &content),
                   SCREENPLAY_OK);
            pump(&drawn, 1);
            expect("destroy-in-callback", in_callback_destroy, SCREENPLAY_ERROR_IN_CALLBACK);
            expect("dispatch-in-callback", in_callback_dispatch, SCREENPLAY_ERROR_IN_CALLBACK);
            expect("draw-after-draw", screenplay_draw_clear(kept_draw, 0), SCREENPLAY_ERROR_NOT_IN_DRAW);
            expect("power-value", screenplay_screen_set_power(tv, 7, NULL, NULL), SCREENPLAY_ERROR_INVALID_ARGUMENT);
            expect("mode-value", screenplay_screen_set_mode(tv, 0, 0, 0, NULL, NULL), SCREENPLAY_ERROR_INVALID_ARGUMENT);
            expect("power-null", screenplay_screen_read_power(tv, NULL, NULL), SCREENPLAY_ERROR_NULL_ARGUMENT);
            expect("picture-missing", screenplay_picture_load(app, "/no/such/picture.png", &picture), SCREENPLAY_ERROR_FILE);
            expect("mode", screenplay_screen_set_mode(tv, 1280, 720, 30000, on_mode, NULL), SCREENPLAY_OK);
            pump(&answers, 1);
            expect("power", screenplay_screen_read_power(tv, on_power, NULL), SCREENPLAY_OK);
            pump(&answers, 2);
            expect("unregister", screenplay_unregister_content(content), SCREENPLAY_OK);
            int none = 0;
            pump(&none, 1);
            expect("scene-after-disconnect", screenplay_scene_set_needs_display(kept_scene), SCREENPLAY_ERROR_INVALID_HANDLE);
            expect("unregister-twice", screenplay_unregister_content(content), SCREENPLAY_ERROR_INVALID_HANDLE);
            expect("destroy", screenplay_app_destroy(app), SCREENPLAY_OK);
            expect("app-after-destroy", screenplay_app_fd(app, &fd), SCREENPLAY_ERROR_INVALID_HANDLE);
            expect("screen-after-destroy", screenplay_screen_name(tv, &name), SCREENPLAY_ERROR_INVALID_HANDLE);
            expect("destroy-twice", screenplay_app_destroy(app), SCREENPLAY_ERROR_INVALID_HANDLE);
            printf("unknown-code %s\n", screenplay_result_name(12345));
            return 0;
        }
        """#

    func testMisuseReturnsCodesWithMessagesAndRequestsAnswerThroughCallbacks() throws {
        let install = try ScratchInstall(self)
        let source = install.prefix + "/misuse.c"
        try Self.program.write(toFile: source, atomically: true, encoding: .utf8)
        try install.buildC(source, output: install.prefix + "/misuse", flags: "-std=c99 -Wall -Wextra -Werror -pthread")
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)])
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["LD_LIBRARY_PATH"] = install.prefix + "/lib"
        let run = try runProcess(install.prefix + "/misuse", [], environment: environment, timeout: 60)
        XCTAssertEqual(run.status, 0, "the program ran to its end, no crash: \(run.stdout)\n\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let cases = lines.filter { $0.contains(" ok ") || $0.contains(" WRONG ") }
        XCTAssertEqual(cases.count, 29, run.stdout)
        for line in cases {
            XCTAssertTrue(line.contains(" ok "), line)
            let message = line.split(separator: "|", maxSplits: 1).last.map(String.init) ?? ""
            if !line.contains("SCREENPLAY_OK") {
                XCTAssertTrue(message.contains("screenplay_"), "the message names the function: \(line)")
                XCTAssertGreaterThan(message.count, 40, "the message says why and what to do: \(line)")
            }
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("other-thread ok") && $0.contains("main thread") }, run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("picture-missing ok") && $0.contains("/no/such/picture.png") })
        // headless sway lists no modes and applies a custom one; it reports panel power.
        XCTAssertTrue(lines.contains("mode-answer SCREENPLAY_OK 1280x720 "), run.stdout)
        XCTAssertTrue(lines.contains("power-answer SCREENPLAY_OK 1 "), run.stdout)
        XCTAssertTrue(lines.contains("unknown-code an unknown screenplay_result"), run.stdout)
    }

    /// The guide's program as written: its text on the TV under
    /// screenplay_app_run, and SIGTERM ends the run with exit 0.
    func testTheGuidesProgramShowsItsTextOnTheTVAndEndsOnSIGTERM() throws {
        let install = try ScratchInstall(self)
        try (CLibrary.guideProgram().program + "\n").write(
            toFile: install.prefix + "/guide.c", atomically: true, encoding: .utf8)
        try install.buildC(install.prefix + "/guide.c", output: install.prefix + "/guide")
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)])
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["LD_LIBRARY_PATH"] = install.prefix + "/lib"
        let p = try RunningProcess(install.prefix + "/guide", [], environment: environment)
        addTeardownBlock { p.kill() }
        var shares = (background: 0.0, text: 0.0)
        XCTAssertTrue(
            waitUntil(timeout: 10, poll: 0.1) {
                guard let image = try? rig.capture(output: "HEADLESS-2") else { return false }
                shares = (image.fraction(of: RGB(hex: 0x102040), tolerance: 2), image.fraction(of: RGB(hex: 0xffffff)))
                return shares.background > 0.8 && shares.text > 0.005
            }, "the TV: background and white text \(shares); \(p.stderr)")
        // The laptop's built-in panel gets no scene.
        let laptop = try rig.capture(output: "HEADLESS-1").fraction(of: RGB(hex: 0x102040), tolerance: 2)
        XCTAssertLessThan(laptop, 0.1, "the built-in panel shows the content")
        assertCleanStop(p)
    }
}
