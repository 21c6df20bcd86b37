import DemoApp
import WayfinderServer

// The `wayfinder` executable: the sample app, served by the server library.
Server(DemoApp.makeApplication, services: DemoApp.makeServices).run()
