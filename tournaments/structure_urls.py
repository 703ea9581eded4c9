"""URLs of the structure editor and the public structure page (tournaments namespace)."""

from django.urls import path

from tournaments import structure_views as views

urlpatterns = [
    path("structures/", views.structure_list, name="structure_list"),
    path("structures/new/", views.structure_create, name="structure_create"),
    path("structures/import/", views.structure_import, name="structure_import"),
    path("structures/<int:pk>/", views.structure_detail, name="structure_detail"),
    path("structures/<int:pk>/edit/", views.structure_editor, name="structure_editor"),
    path("structures/<int:pk>/export/", views.structure_export, name="structure_export"),
    path("structures/<int:pk>/duplicate/", views.structure_duplicate, name="structure_duplicate"),
    path("structures/<int:pk>/levels/", views.level_add, name="level_add"),
    path("structures/<int:pk>/levels/<int:level_pk>/", views.level_update, name="level_update"),
    path(
        "structures/<int:pk>/levels/<int:level_pk>/delete/",
        views.level_delete,
        name="level_delete",
    ),
    path("structures/<int:pk>/levels/<int:level_pk>/move/", views.level_move, name="level_move"),
]
