#pragma once

#include <QProcess>
#include <QString>

// A real toxiproxy server (Shopify's, built by packaging/install-toxiproxy.sh; the binary is
// $OE_TOXIPROXY, else the script runs) between the tools and the test server, on free loopback
// ports: one proxy, whose toxics (latency, a connection cut after N bytes, a stalled link, a
// bandwidth cap) the faults tests add and remove through its HTTP API (curl). Stopped when
// destroyed.
class Toxiproxy
{
public:
    ~Toxiproxy();
    // Starts the server and a proxy to `upstream` ("host:port"); false with `error` set.
    bool start(const QString &upstream, QString *error);
    // "127.0.0.1:PORT": where clients connect instead of the upstream.
    QString listen() const { return m_listen; }
    // Adds a toxic: type latency|limit_data|timeout|bandwidth|reset_peer|slicer, stream
    // downstream|upstream, attributes as a JSON object ("{\"bytes\": 100000}").
    bool addToxic(const QString &name, const QString &type, const QString &stream,
                  const QString &attributes, QString *error);
    bool removeToxic(const QString &name, QString *error);
    // Disabled, the proxy closes its connections and refuses new ones: the server is gone, as
    // far as its clients can tell; enabled again, it is back.
    bool setEnabled(bool enabled, QString *error);

private:
    bool api(const QString &method, const QString &path, const QString &body, QString *error);

    QProcess m_server;
    QString m_api;
    QString m_listen;
    QString m_log; // its output
};
