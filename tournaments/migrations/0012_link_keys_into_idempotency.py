"""One idempotency mechanism (2/2): the keys of LinkDealKey (a table link's offline outbox) move into
IdempotencyKey, owned by their link, and LinkDealKey goes. Apart from 0011: PostgreSQL creates no index on a table
holding rows with pending deferred checks, in one transaction."""

from django.db import migrations


def link_keys_forward(apps, schema_editor):
    """Each LinkDealKey becomes an IdempotencyKey owned by its link (the first response: the deal, rebuilt)."""
    LinkDealKey = apps.get_model("tournaments", "LinkDealKey")
    IdempotencyKey = apps.get_model("tournaments", "IdempotencyKey")
    IdempotencyKey.objects.bulk_create([
        IdempotencyKey(link_id=k.link_id, key=k.key, request_hash=k.request_hash, deal_id=k.deal_id,
                       status_code=201, response="", created_at=k.created_at)
        for k in LinkDealKey.objects.all().iterator()
    ], batch_size=500)


def link_keys_backward(apps, schema_editor):
    LinkDealKey = apps.get_model("tournaments", "LinkDealKey")
    IdempotencyKey = apps.get_model("tournaments", "IdempotencyKey")
    keys = IdempotencyKey.objects.filter(link__isnull=False)
    LinkDealKey.objects.bulk_create([
        LinkDealKey(link_id=k.link_id, key=k.key, request_hash=k.request_hash, deal_id=k.deal_id,
                    created_at=k.created_at)
        for k in keys.iterator()
    ], batch_size=500)
    keys.delete()


class Migration(migrations.Migration):

    dependencies = [("tournaments", "0011_idempotency_key_owner")]

    operations = [
        migrations.RunPython(link_keys_forward, link_keys_backward),
        migrations.DeleteModel(name="LinkDealKey"),
    ]
