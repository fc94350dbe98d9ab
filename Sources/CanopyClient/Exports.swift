// What an app using CanopyClient needs besides `BlockingClient`: the JSON value messages are made of, the daemon's
// address and the client's error, without depending on the transport or the engine itself.
@_exported import enum CanopyCore.JSON
@_exported import typealias CanopyCore.JSONObject
@_exported import struct CanopyWebSocket.WebSocketURL
@_exported import typealias CanopyWebSocket.ClientError
@_exported import struct CanopySupport.CanopyFailure
