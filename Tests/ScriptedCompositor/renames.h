// The client side (Sources/CWaylandProtocols) defines these interface
// descriptions too, and both end up in one test binary: give the fixture's
// copies their own names. Include before any generated code or header.
#ifndef SCRIPTED_RENAMES_H
#define SCRIPTED_RENAMES_H
#define zwlr_layer_shell_v1_interface scripted_zwlr_layer_shell_v1_interface
#define zwlr_layer_surface_v1_interface scripted_zwlr_layer_surface_v1_interface
#define zxdg_output_manager_v1_interface scripted_zxdg_output_manager_v1_interface
#define zxdg_output_v1_interface scripted_zxdg_output_v1_interface
#define xdg_popup_interface scripted_xdg_popup_interface
#endif
