"""One controller QObject per async feature. Widgets call a controller's methods and listen to its ``sig_*``
signals; only controllers await core code (on the qasync loop, blocking calls in threads)."""
