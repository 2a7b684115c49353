#ifndef SCREENPLAY_CLINUXEVENTS_SHIM_H
#define SCREENPLAY_CLINUXEVENTS_SHIM_H
// epoll, timerfd and eventfd for the main event loop: part of glibc, but
// Swift's Glibc module does not export these headers.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#endif
