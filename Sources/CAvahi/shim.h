#ifndef CAVAHI_SHIM_H
#define CAVAHI_SHIM_H
/* Avahi's client library (DNS-SD over the avahi-daemon, through D-Bus). */
#include <stdint.h>
#include <string.h>
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/simple-watch.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>

/* Constants and variadic calls Swift cannot import, as inline functions. */
static inline AvahiIfIndex cavahi_if_unspec(void) { return AVAHI_IF_UNSPEC; }
static inline AvahiProtocol cavahi_proto_unspec(void) { return AVAHI_PROTO_UNSPEC; }
static inline AvahiProtocol cavahi_proto_inet(void) { return AVAHI_PROTO_INET; }
static inline AvahiProtocol cavahi_proto_inet6(void) { return AVAHI_PROTO_INET6; }

/* avahi_entry_group_add_service on every interface, for `protocol` (its
   address records; AVAHI_PROTO_UNSPEC: IPv4 and IPv6), with two TXT strings. */
static inline int cavahi_add_service(AvahiEntryGroup *g, AvahiProtocol protocol, const char *name, const char *type,
                                     uint16_t port, const char *txt1, const char *txt2) {
    return avahi_entry_group_add_service(g, AVAHI_IF_UNSPEC, protocol, (AvahiPublishFlags)0, name, type,
                                         NULL, NULL, port, txt1, txt2, NULL);
}

/* The value of TXT entry `key` copied into `out` (NUL-terminated, cut to n-1 bytes); 0 when found. */
static inline int cavahi_txt_value(AvahiStringList *list, const char *key, char *out, size_t n) {
    AvahiStringList *item = avahi_string_list_find(list, key);
    char *k = NULL, *v = NULL;
    if (!item || n == 0 || avahi_string_list_get_pair(item, &k, &v, NULL) < 0) return -1;
    size_t len = v ? strlen(v) : 0;
    if (len >= n) len = n - 1;
    if (v) memcpy(out, v, len);
    out[len] = 0;
    avahi_free(k);
    avahi_free(v);
    return 0;
}
#endif
