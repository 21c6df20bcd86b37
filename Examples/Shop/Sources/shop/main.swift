import ShopApp
import WayfinderServer

// The `shop` executable: the example app, served by the server library.
Server(Shop.makeApplication).run()
