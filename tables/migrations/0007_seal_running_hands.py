"""Running hands keep their deck, secret and moves' cards sealed (docs/threat-model.md)."""

from django.db import migrations, models

from tables.online.models import open_cards, open_move, seal_cards, seal_move


def seal_running_hands(apps, schema_editor):
    """Seal the cards of the hands running at the upgrade; finished hands stay opened."""
    TableHand = apps.get_model("tables", "TableHand")
    HandAction = apps.get_model("tables", "HandAction")
    for hand in TableHand.objects.filter(is_over=False, deck__isnull=False, sealed_cards=""):
        hand.sealed_cards = seal_cards(deck=hand.deck, secret=hand.secret)
        hand.deck, hand.secret = None, ""
        hand.save(update_fields=["deck", "secret", "sealed_cards"])
        for action in HandAction.objects.filter(hand=hand):
            sealed = seal_move(action.record)
            if sealed != action.record:
                action.record = sealed
                action.save(update_fields=["record"])


def open_running_hands(apps, schema_editor):
    """Back to opened columns (a downgrade needs the key that sealed them)."""
    TableHand = apps.get_model("tables", "TableHand")
    HandAction = apps.get_model("tables", "HandAction")
    for hand in TableHand.objects.exclude(sealed_cards=""):
        hand.deck, hand.secret = open_cards(hand.sealed_cards)
        hand.sealed_cards = ""
        hand.save(update_fields=["deck", "secret", "sealed_cards"])
        for action in HandAction.objects.filter(hand=hand, record__has_key="sealed"):
            action.record = open_move(action.record)
            action.save(update_fields=["record"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_online_tournaments"),
    ]

    operations = [
        migrations.AddField(
            model_name="tablehand",
            name="sealed_cards",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.AlterField(
            model_name="tablehand",
            name="deck",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="tablehand",
            name="secret",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.RunPython(seal_running_hands, open_running_hands),
    ]
