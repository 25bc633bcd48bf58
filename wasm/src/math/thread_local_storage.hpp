// OBLIQUE_THREAD_LOCAL: storage of one thread, for the scratch buffers and memos the core keeps from call to
// call. Natively a thread_local, so that programs calling the core from several threads stay correct; in the
// wasm module, which runs on one thread and where a thread_local needs the atomics feature (the module is
// built with bulk memory and without threads), a plain static.
#pragma once

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define OBLIQUE_THREAD_LOCAL
#else
#define OBLIQUE_THREAD_LOCAL thread_local
#endif
